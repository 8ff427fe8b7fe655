/** The 3-D Secure browser data of this browser (the Accept header is not readable from script: a typical value). */
export const browserInfo = () => ({
  user_agent: navigator.userAgent,
  accept_header: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  java_enabled: false,
  color_depth: screen.colorDepth || 24,
  screen_height: screen.height,
  screen_width: screen.width,
  time_zone_offset: new Date().getTimezoneOffset(),
  language: navigator.language || "en-US",
})
