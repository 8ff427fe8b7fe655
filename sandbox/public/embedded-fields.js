/*
 * PGS sandbox — drop-in fake of {base_url}/embedded-fields.js (plain browser JS, no build step).
 *
 * window.PaymentComponent(options) -> Promise<core>; core.create("card" | "saved-card" | "alternative-payment-method", config).
 * Card fields live in an iframe served by the sandbox (/embedded/frame); this script talks to it only with
 * postMessage, checking origin and source both ways, so card data never reaches the host page.
 * Alternative payment methods use the factories registered at window['<type>'].factory (the spec's stub scripts);
 * their API call goes through a hidden "bridge" frame of the same origin, so the host page needs no CORS.
 */
;(function () {
  "use strict"
  if (window.PaymentComponent) return

  var script = document.currentScript
  var SANDBOX = new URL(script && script.src ? script.src : location.href).origin
  var LOCALES = ["en-US", "bs-BA", "ro-RO", "sv-SE"]
  var ENVIRONMENTS = ["test", "production"]
  var CSS_VARS = [
    "--lib-font-family",
    "--lib-input-font-size",
    "--lib-accent-color",
    "--lib-accent-background-color",
    "--lib-label-font-size",
    "--lib-warning-color",
    "--lib-warning-background-color",
    "--lib-input-color",
    "--lib-input-focus-border-color",
    "--lib-input-border-color",
    "--lib-input-focus-color",
    "--lib-place-holder-color",
    "--lib-input-border-radius",
    "--lib-button-border-radius",
    "--lib-button-font-size",
  ]
  var ALTERNATIVE_TYPES = ["wallet-one-redirect", "wallet-two-redirect", "bank-scheme-redirect", "openbanking-redirect"]
  var nextComponentId = 1

  /** Exact tag first, then the language part ("sv" -> "sv-SE"); null when nothing matches. */
  function matchLocale(tag) {
    if (typeof tag !== "string" || !tag) return null
    var lower = tag.toLowerCase()
    for (var i = 0; i < LOCALES.length; i++) if (LOCALES[i].toLowerCase() === lower) return LOCALES[i]
    var lang = lower.split("-")[0]
    for (var j = 0; j < LOCALES.length; j++) if (LOCALES[j].split("-")[0].toLowerCase() === lang) return LOCALES[j]
    return null
  }

  /** Spec: the given locale, else the browser language when supported, else English. */
  function resolveLocale(requested) {
    // Assumption: an unsupported explicit locale falls back like an omitted one (browser language, then English).
    var found = matchLocale(requested)
    if (found) return found
    var browser = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]
    for (var i = 0; i < browser.length; i++) {
      found = matchLocale(browser[i])
      if (found) return found
    }
    return "en-US"
  }

  function readCssVars(element) {
    var style = getComputedStyle(element)
    var vars = {}
    CSS_VARS.forEach(function (name) {
      var value = style.getPropertyValue(name).trim()
      if (value) vars[name] = value
    })
    return vars
  }

  function toSnakeCustomer(customer) {
    if (!customer || typeof customer !== "object") return undefined
    var map = { firstName: "first_name", lastName: "last_name", address: "address", city: "city", postalCode: "postal_code", country: "country", phone: "phone", email: "email" }
    var out = {}
    Object.keys(map).forEach(function (key) {
      if (customer[key] !== undefined && customer[key] !== null && customer[key] !== "") out[map[key]] = String(customer[key])
    })
    return out
  }

  function resolveHost(selector) {
    var host = typeof selector === "string" ? document.querySelector(selector) : selector
    if (!host || !(host instanceof Element)) throw new Error("PaymentComponent: mount target not found: " + String(selector))
    return host
  }

  function safeCall(fn, args) {
    if (typeof fn !== "function") return
    try {
      fn.apply(null, args)
    } catch (e) {
      setTimeout(function () {
        throw e
      })
    }
  }

  /**
   * One sandbox iframe and its message channel. Messages from the frame are accepted only from the sandbox origin
   * and from this iframe's window; messages to it are addressed to the sandbox origin.
   */
  function FrameChannel(kind, onMessage) {
    var self = this
    this.id = "pgs-" + nextComponentId++
    this.iframe = document.createElement("iframe")
    this.iframe.src = SANDBOX + "/embedded/frame?parent=" + encodeURIComponent(location.origin) + "&cid=" + encodeURIComponent(this.id) + "&kind=" + encodeURIComponent(kind)
    this.iframe.title = kind === "bridge" ? "Payment service" : "Secure card payment"
    this.iframe.setAttribute("allow", "payment")
    this.iframe.setAttribute("data-pgs-frame", kind)
    this.listener = function (event) {
      if (event.origin !== SANDBOX || event.source !== self.iframe.contentWindow) return
      var data = event.data
      if (!data || data.pgs !== "embedded" || data.cid !== self.id) return
      onMessage(data)
    }
    window.addEventListener("message", this.listener)
  }
  FrameChannel.prototype.send = function (message) {
    if (this.iframe.contentWindow) this.iframe.contentWindow.postMessage(message, SANDBOX)
  }
  FrameChannel.prototype.close = function () {
    window.removeEventListener("message", this.listener)
    if (this.iframe.parentNode) this.iframe.parentNode.removeChild(this.iframe)
  }

  /** The hidden frame that loads the session and makes API calls for components without their own frame. */
  function Bridge(options) {
    var self = this
    this.pending = {}
    this.nextRequest = 1
    this.ready = new Promise(function (resolve, reject) {
      self.channel = new FrameChannel("bridge", function (msg) {
        if (msg.type === "ready") self.channel.send({ type: "init", mode: "bridge", clientKey: options.clientKey, sessionId: options.sessionId })
        else if (msg.type === "session") resolve(msg.session)
        else if (msg.type === "error") reject(Object.assign(new Error(msg.error.message), msg.error))
        else if (msg.type === "response" && self.pending[msg.rid]) {
          self.pending[msg.rid](msg)
          delete self.pending[msg.rid]
        }
      })
    })
    var frame = this.channel.iframe
    frame.setAttribute("aria-hidden", "true")
    frame.tabIndex = -1
    frame.style.cssText = "position:absolute;width:0;height:0;border:0;visibility:hidden"
    ;(document.body || document.documentElement).appendChild(frame)
  }
  Bridge.prototype.request = function (op, body) {
    var self = this
    return new Promise(function (resolve) {
      var rid = self.nextRequest++
      self.pending[rid] = resolve
      self.channel.send({ type: "request", rid: rid, op: op, body: body })
    })
  }
  Bridge.prototype.close = function () {
    this.channel.close()
  }

  /** card and saved-card: the fields are drawn by the sandbox frame; this object mirrors its state. */
  function CardComponent(core, type, config) {
    this.core = core
    this.type = type
    this.config = config || {}
    this.listeners = this.config.componentListeners || {}
    this.locale = core.locale
    this.channel = null
    this.state = { isValid: false, invalidFields: [], data: {} }
    this.submission = null
  }
  CardComponent.prototype.mount = function (selector) {
    var self = this
    if (this.channel) this.unmount()
    var host = resolveHost(selector)
    this.host = host
    return new Promise(function (resolve, reject) {
      var rendered = false
      self.channel = new FrameChannel(self.type, function (msg) {
        switch (msg.type) {
          case "ready":
            var cc = self.config.componentConfig || {}
            self.channel.send({
              type: "init",
              mode: self.type,
              clientKey: self.core.options.clientKey,
              sessionId: self.core.options.sessionId,
              locale: self.locale,
              customerConfig: cc.customerConfig || {},
              data: cc.data || null,
              cssVars: readCssVars(host),
            })
            break
          case "rendered":
            self.state = msg.state
            rendered = true
            resolve(self)
            break
          case "resize":
            self.channel.iframe.style.height = msg.height + "px"
            break
          case "state":
            self.state = msg.state
            if (msg.changed) safeCall(self.listeners.onChange, [msg.state])
            break
          case "result":
            self.finishSubmission(msg.response, null)
            break
          case "failed":
            self.finishSubmission(null, msg.error)
            safeCall(self.listeners.onError, [msg.error])
            break
          case "error":
            safeCall(self.listeners.onError, [msg.error])
            if (!rendered) reject(Object.assign(new Error(msg.error.message), msg.error))
            break
        }
      })
      var frame = self.channel.iframe
      frame.style.cssText = "display:block;width:100%;border:0;height:0;overflow:hidden;background:transparent"
      frame.setAttribute("scrolling", "no")
      host.appendChild(frame)
    })
  }
  CardComponent.prototype.unmount = function () {
    if (this.channel) this.channel.close()
    this.channel = null
    this.state = { isValid: false, invalidFields: [], data: {} }
    if (this.submission) this.finishSubmission(null, { code: "UNMOUNTED", message: "The component was unmounted during payment" })
  }
  /** Synchronous, from the last state the frame reported; also asks the frame to show the messages. */
  CardComponent.prototype.validate = function () {
    if (!this.channel) return false
    this.channel.send({ type: "validate" })
    return Boolean(this.state.isValid)
  }
  CardComponent.prototype.getDataWithValidation = function () {
    return {
      isValid: Boolean(this.state.isValid),
      invalidFields: (this.state.invalidFields || []).map(function (f) {
        return { field: f.field, message: f.message }
      }),
      data: Object.assign({}, this.state.data),
    }
  }
  /** Assumption: the customer the component itself collects — the optional holder name and email fields. */
  CardComponent.prototype.getCustomer = function () {
    var data = this.state.data || {}
    return { holderName: data.holderName || null, email: data.holderEmail || null }
  }
  CardComponent.prototype.changeLocale = function (locale) {
    this.locale = resolveLocale(locale)
    if (this.channel) this.channel.send({ type: "locale", locale: this.locale })
    return this.locale
  }
  CardComponent.prototype.submitPayment = function (args) {
    var self = this
    args = args || {}
    return new Promise(function (resolve) {
      var callback = function (response, error) {
        safeCall(args.callback, [response, error])
        resolve({ response: response, error: error })
      }
      if (!self.channel) return callback(null, { code: "NOT_MOUNTED", message: "Mount the component before submitting" })
      if (self.submission) return callback(null, { code: "IN_PROGRESS", message: "A payment is already being processed" })
      self.submission = callback
      self.channel.send({ type: "submit", customer: toSnakeCustomer(args.customer) })
    })
  }
  CardComponent.prototype.finishSubmission = function (response, error) {
    var callback = this.submission
    this.submission = null
    if (callback) callback(response, error)
  }

  /** What a stub factory builds: renders nothing, never navigates; submitPayment hands back the redirect URL. */
  function AlternativeComponent(core, type, config) {
    this.core = core
    this.type = type
    this.listeners = (config && config.componentListeners) || {}
  }
  AlternativeComponent.prototype.mount = function () {
    return Promise.resolve(this)
  }
  AlternativeComponent.prototype.unmount = function () {}
  AlternativeComponent.prototype.validate = function () {
    return true
  }
  AlternativeComponent.prototype.getDataWithValidation = function () {
    return { isValid: true, invalidFields: [], data: { paymentMethodType: this.type } }
  }
  AlternativeComponent.prototype.getCustomer = function () {
    return {}
  }
  AlternativeComponent.prototype.changeLocale = function (locale) {
    return resolveLocale(locale)
  }
  AlternativeComponent.prototype.submitPayment = function (args) {
    var self = this
    args = args || {}
    return this.core._bridge
      .request("alternative", { payment_method_type: this.type, customer: toSnakeCustomer(args.customer) })
      .then(function (reply) {
        var body = reply.body || {}
        var response = null
        var error = null
        if (reply.ok && body.redirect) {
          response = { approved: false, status: "PENDING", transaction_id: body.redirect.transaction_id, redirect_url: body.redirect.url, session_id: self.core.options.sessionId }
        } else if (reply.ok && body.result) {
          var r = body.result
          response = { approved: r.approved, status: r.status, transaction_id: r.id, redirect_url: r.redirect_url || null, processing_code: r.processing_code, session_id: self.core.options.sessionId }
        } else {
          error = { code: body.error || "REQUEST_FAILED", message: body.message || "The payment could not be started", status: reply.status, errors: body.errors }
          safeCall(self.listeners.onError, [error])
        }
        safeCall(args.callback, [response, error])
        return { response: response, error: error }
      })
  }

  // The spec's stub scripts: one factory per wallet/bank redirect type.
  ALTERNATIVE_TYPES.forEach(function (type) {
    if (!window[type]) {
      window[type] = {
        factory: function (core, config) {
          return new AlternativeComponent(core, type, config)
        },
      }
    }
  })

  function Core(options, bridge, session) {
    this.options = options
    this.locale = resolveLocale(options.locale)
    this.session = { id: session.id, amount: session.amount, currency: session.currency }
    this._bridge = bridge
    this._components = []
  }
  Core.prototype.create = function (type, config) {
    var component
    if (type === "card" || type === "saved-card") {
      if (type === "saved-card") {
        var data = config && config.componentConfig && config.componentConfig.data
        if (!data || !data.paymentMethodId) throw new Error("PaymentComponent: saved-card needs componentConfig.data.paymentMethodId")
      }
      component = new CardComponent(this, type, config)
    } else if (type === "alternative-payment-method") {
      var methodType = config && config.paymentMethodType
      var stub = methodType && window[methodType]
      if (!stub || typeof stub.factory !== "function") throw new Error("PaymentComponent: no factory registered for " + String(methodType))
      component = stub.factory(this, config)
    } else {
      throw new Error("PaymentComponent: unknown component type " + String(type))
    }
    this._components.push(component)
    return component
  }
  Core.prototype.destroy = function () {
    this._components.forEach(function (c) {
      c.unmount()
    })
    this._components = []
    this._bridge.close()
  }

  window.PaymentComponent = function PaymentComponent(options) {
    options = options || {}
    if (!options.clientKey) return Promise.reject(new Error("PaymentComponent: clientKey is required"))
    if (!options.sessionId) return Promise.reject(new Error("PaymentComponent: sessionId is required"))
    if (ENVIRONMENTS.indexOf(options.environment) < 0) return Promise.reject(new Error("PaymentComponent: environment must be 'test' or 'production'"))
    var bridge = new Bridge(options)
    return bridge.ready.then(
      function (session) {
        return new Core(options, bridge, session)
      },
      function (error) {
        bridge.close()
        throw error
      },
    )
  }
})()
