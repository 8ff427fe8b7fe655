/*
 * PGS sandbox — the card frame behind embedded-fields.js (served at /embedded/frame.js, sandbox origin).
 * It draws the fields, validates them, sends the card to the sandbox's client-key API and runs the 3-D Secure
 * steps (fingerprint, challenge, redirect, form submit) inside itself. The host page only ever receives state
 * without card data, and the final response.
 */
;(function () {
  "use strict"

  var params = new URLSearchParams(location.search)
  var PARENT = params.get("parent") || ""
  var CID = params.get("cid") || ""
  var root = document.getElementById("pgs-root")

  var MESSAGES = {
    "en-US": {
      holderName: "Cardholder name", holderEmail: "Email", cardNumber: "Card number", expirationDate: "Expiry date",
      cvv: "CVV / CVC", instalments: "Instalments", noInstalments: "No instalments", instalmentCount: "{n} instalments",
      oneInstalment: "1 instalment", required: "This field is required", invalidNumber: "Card number is invalid",
      invalidExpiry: "Use the format MM/YY", expired: "The card has expired", invalidCvv: "CVV must be 3 or 4 digits",
      invalidEmail: "Email address is invalid", savedCard: "Saved card", processing: "Processing payment…",
      authenticating: "Verifying with your bank…", declined: "The payment was declined", approved: "Payment approved",
      failed: "The payment could not be processed", paid: "This payment session is already paid",
      numberPlaceholder: "1234 1234 1234 1234", expiryPlaceholder: "MM/YY", cvvPlaceholder: "123",
    },
    "bs-BA": {
      holderName: "Ime vlasnika kartice", holderEmail: "E-pošta", cardNumber: "Broj kartice", expirationDate: "Datum isteka",
      cvv: "CVV / CVC", instalments: "Rate", noInstalments: "Bez rata", instalmentCount: "Broj rata: {n}",
      oneInstalment: "Broj rata: 1", required: "Ovo polje je obavezno", invalidNumber: "Broj kartice nije ispravan",
      invalidExpiry: "Koristite format MM/GG", expired: "Kartica je istekla", invalidCvv: "CVV mora imati 3 ili 4 cifre",
      invalidEmail: "E-pošta nije ispravna", savedCard: "Sačuvana kartica", processing: "Obrada plaćanja…",
      authenticating: "Provjera kod vaše banke…", declined: "Plaćanje je odbijeno", approved: "Plaćanje odobreno",
      failed: "Plaćanje nije moguće obraditi", paid: "Ova sesija plaćanja je već plaćena",
      numberPlaceholder: "1234 1234 1234 1234", expiryPlaceholder: "MM/GG", cvvPlaceholder: "123",
    },
    "ro-RO": {
      holderName: "Numele titularului", holderEmail: "E-mail", cardNumber: "Număr card", expirationDate: "Data expirării",
      cvv: "CVV / CVC", instalments: "Rate", noInstalments: "Fără rate", instalmentCount: "{n} rate",
      oneInstalment: "1 rată", required: "Acest câmp este obligatoriu", invalidNumber: "Numărul cardului nu este valid",
      invalidExpiry: "Folosiți formatul LL/AA", expired: "Cardul a expirat", invalidCvv: "CVV trebuie să aibă 3 sau 4 cifre",
      invalidEmail: "Adresa de e-mail nu este validă", savedCard: "Card salvat", processing: "Se procesează plata…",
      authenticating: "Verificare la banca dvs.…", declined: "Plata a fost refuzată", approved: "Plată aprobată",
      failed: "Plata nu a putut fi procesată", paid: "Această sesiune de plată este deja plătită",
      numberPlaceholder: "1234 1234 1234 1234", expiryPlaceholder: "LL/AA", cvvPlaceholder: "123",
    },
    "sv-SE": {
      holderName: "Kortinnehavarens namn", holderEmail: "E-post", cardNumber: "Kortnummer", expirationDate: "Utgångsdatum",
      cvv: "CVV / CVC", instalments: "Delbetalning", noInstalments: "Ingen delbetalning", instalmentCount: "{n} delbetalningar",
      oneInstalment: "1 delbetalning", required: "Fältet är obligatoriskt", invalidNumber: "Kortnumret är ogiltigt",
      invalidExpiry: "Använd formatet MM/ÅÅ", expired: "Kortet har gått ut", invalidCvv: "CVV ska vara 3 eller 4 siffror",
      invalidEmail: "E-postadressen är ogiltig", savedCard: "Sparat kort", processing: "Betalningen behandlas…",
      authenticating: "Verifierar med din bank…", declined: "Betalningen nekades", approved: "Betalningen godkändes",
      failed: "Betalningen kunde inte genomföras", paid: "Den här betalningssessionen är redan betald",
      numberPlaceholder: "1234 1234 1234 1234", expiryPlaceholder: "MM/ÅÅ", cvvPlaceholder: "123",
    },
  }

  var config = null // the parent's init message
  var session = null // GET /embedded/api/sessions/:id
  var locale = "en-US"
  var touched = {}
  var showAll = false
  var busy = false
  var els = {}
  var flow = null // the running 3-D Secure / redirect step: { kind, transactionId, origin, resolve }

  function t(key, n) {
    var table = MESSAGES[locale] || MESSAGES["en-US"]
    var text = table[key] || MESSAGES["en-US"][key] || key
    return n === undefined ? text : text.replace("{n}", String(n))
  }

  function toParent(message) {
    if (!PARENT || window.parent === window) return
    message.pgs = "embedded"
    message.cid = CID
    window.parent.postMessage(message, PARENT)
  }

  function fail(code, message, extra) {
    return Object.assign({ code: code, message: message }, extra || {})
  }

  // ---- API (same origin: no CORS, the client key travels in a header) ----

  function api(method, path, body) {
    var headers = { "x-client-key": config.clientKey }
    if (body !== undefined) headers["content-type"] = "application/json"
    return fetch("/embedded/api/sessions/" + encodeURIComponent(config.sessionId) + path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
    }).then(
      function (res) {
        return res.text().then(function (text) {
          var parsed = null
          try {
            parsed = text ? JSON.parse(text) : null
          } catch (e) {
            parsed = null
          }
          return { ok: res.ok, status: res.status, body: parsed }
        })
      },
      function (error) {
        return { ok: false, status: 0, body: { error: "NETWORK_ERROR", message: String(error && error.message) } }
      },
    )
  }

  // ---- card rules (kept in step with sandbox/embedded/instalments.ts) ----

  function digitsOf(value) {
    return String(value || "").replace(/\D/g, "")
  }
  function luhnValid(number) {
    if (!/^\d{12,19}$/.test(number)) return false
    var sum = 0
    for (var i = 0; i < number.length; i++) {
      var d = Number(number[number.length - 1 - i])
      if (i % 2 === 1) {
        d *= 2
        if (d > 9) d -= 9
      }
      sum += d
    }
    return sum % 10 === 0
  }
  function brandOf(number) {
    if (/^4/.test(number)) return "VISA"
    if (/^(5[1-5]|2[2-7])/.test(number)) return "MASTERCARD"
    if (/^3[47]/.test(number)) return "AMEX"
    return null
  }
  function eligibleBrand(brand) {
    return brand === "VISA" || brand === "MASTERCARD"
  }
  function eligibleForInstalments() {
    if (config.mode === "saved-card") return eligibleBrand(String((config.data && config.data.cardBrand) || "").toUpperCase())
    var number = digitsOf(els.cardNumber && els.cardNumber.value)
    return luhnValid(number) && eligibleBrand(brandOf(number))
  }
  function parseExpiry(value) {
    var m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value || "")
    if (!m) return null
    var month = Number(m[1])
    var year = Number(m[2].length === 2 ? "20" + m[2] : m[2])
    if (month < 1 || month > 12) return null
    return { month: month, year: year }
  }
  function isExpired(exp) {
    var now = new Date()
    return exp.year < now.getFullYear() || (exp.year === now.getFullYear() && exp.month < now.getMonth() + 1)
  }

  // ---- state ----

  function fieldError(field) {
    var value = els[field] ? els[field].value : ""
    var cc = config.customerConfig || {}
    switch (field) {
      case "holderName":
        return cc.holderNameRequired && !value.trim() ? "required" : null
      case "holderEmail":
        if (!value.trim()) return cc.holderEmailRequired ? "required" : null
        return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? null : "invalidEmail"
      case "cardNumber":
        var number = digitsOf(value)
        if (!number) return "required"
        return luhnValid(number) ? null : "invalidNumber"
      case "expirationDate":
        if (!value.trim()) return "required"
        var exp = parseExpiry(value)
        if (!exp) return "invalidExpiry"
        return isExpired(exp) ? "expired" : null
      case "cvv":
        if (!value.trim()) return "required"
        return /^\d{3,4}$/.test(value.trim()) ? null : "invalidCvv"
    }
    return null
  }

  function fieldNames() {
    var list = []
    if (els.holderName) list.push("holderName")
    if (els.cardNumber) list.push("cardNumber")
    if (els.expirationDate) list.push("expirationDate")
    list.push("cvv")
    if (els.holderEmail) list.push("holderEmail")
    return list
  }

  function currentState() {
    var invalid = []
    fieldNames().forEach(function (field) {
      var error = fieldError(field)
      if (error) invalid.push({ field: field, message: t(error), code: error })
    })
    var number = digitsOf(els.cardNumber && els.cardNumber.value)
    var data = {
      cardBrand: config.mode === "saved-card" ? (config.data && config.data.cardBrand) || null : brandOf(number),
      numberOfInstalments: selectedInstalments(),
      instalmentsAvailable: Boolean(els.instalments && !els.instalments.disabled),
    }
    if (els.holderName) data.holderName = els.holderName.value.trim()
    if (els.holderEmail) data.holderEmail = els.holderEmail.value.trim()
    if (config.mode === "saved-card") data.paymentMethodId = config.data.paymentMethodId
    return { isValid: invalid.length === 0, invalidFields: invalid, data: data, locale: locale }
  }

  function selectedInstalments() {
    // Not tied to `disabled`: the select is also disabled while a payment runs.
    if (!els.instalments || !els.instalments.value || !eligibleForInstalments()) return null
    return Number(els.instalments.value)
  }

  /** Show messages for touched fields (or all after validate/submit) and tell the parent. */
  function refresh(changed) {
    if (!els.cvv) return null // messages that arrive before the form is drawn change nothing yet
    updateInstalments()
    var state = currentState()
    fieldNames().forEach(function (field) {
      var box = document.getElementById("err-" + field)
      var entry = state.invalidFields.filter(function (f) {
        return f.field === field
      })[0]
      var visible = Boolean(entry && (showAll || touched[field]))
      box.textContent = visible ? entry.message : ""
      els[field].setAttribute("aria-invalid", visible ? "true" : "false")
      els[field].parentNode.classList.toggle("invalid", visible)
    })
    toParent({ type: "state", state: state, changed: changed || null })
    return state
  }

  function updateInstalments() {
    if (!els.instalments) return
    var eligible = eligibleForInstalments()
    // The choice is cleared when the card becomes ineligible (spec: "Instalments").
    if (!eligible) els.instalments.value = ""
    els.instalments.disabled = !eligible || busy
  }

  // ---- rendering ----

  function el(tag, attrs, children) {
    var node = document.createElement(tag)
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k]
      else node.setAttribute(k, attrs[k])
    })
    ;(children || []).forEach(function (c) {
      node.appendChild(c)
    })
    return node
  }

  function inputField(field, attrs) {
    var input = el("input", Object.assign({ id: "in-" + field, name: field, "aria-describedby": "err-" + field }, attrs))
    var label = el("label", { for: "in-" + field, "data-label": field, text: t(field) })
    var wrap = el("div", { class: "field field-" + field }, [label, input, el("div", { class: "error", id: "err-" + field, role: "alert" })])
    els[field] = input
    input.addEventListener("input", function () {
      if (field === "cardNumber") formatNumber(input)
      refresh(field)
    })
    input.addEventListener("blur", function () {
      touched[field] = true
      refresh(null)
    })
    return wrap
  }

  function formatNumber(input) {
    var digits = digitsOf(input.value).slice(0, 19)
    var pretty = digits.replace(/(\d{4})(?=\d)/g, "$1 ")
    if (pretty !== input.value) input.value = pretty
    var brand = brandOf(digits)
    els.brand.textContent = brand || ""
  }

  function instalmentSelect() {
    var select = el("select", { id: "in-instalments", name: "instalments", disabled: "disabled" })
    els.instalments = select
    fillInstalmentOptions()
    select.addEventListener("change", function () {
      refresh("instalments")
    })
    return el("div", { class: "field field-instalments" }, [el("label", { for: "in-instalments", "data-label": "instalments", text: t("instalments") }), select])
  }

  function fillInstalmentOptions() {
    var select = els.instalments
    var current = select.value
    select.innerHTML = ""
    select.appendChild(el("option", { value: "", text: t("noInstalments") }))
    for (var n = 1; n <= session.instalments.max; n++)
      select.appendChild(el("option", { value: String(n), text: n === 1 ? t("oneInstalment") : t("instalmentCount", n) }))
    select.value = current
  }

  function render() {
    root.innerHTML = ""
    els = {}
    var cc = config.customerConfig || {}
    var form = el("form", { class: "pgs-form", novalidate: "novalidate", autocomplete: "on" })
    form.addEventListener("submit", function (e) {
      e.preventDefault()
    })
    if (cc.hasHolderName) form.appendChild(inputField("holderName", { autocomplete: "cc-name", type: "text" }))
    if (config.mode === "saved-card") {
      var d = config.data || {}
      var exp = String(d.expirationDate || "")
      form.appendChild(
        el("div", { class: "saved", id: "saved-card" }, [
          el("span", { class: "saved-label", "data-label": "savedCard", text: t("savedCard") }),
          el("span", { class: "saved-brand", text: d.cardBrand || "" }),
          el("span", { class: "saved-pan", text: d.maskedPan || "" }),
          el("span", { class: "saved-exp", text: exp.length === 4 ? exp.slice(0, 2) + "/" + exp.slice(2) : exp }),
        ]),
      )
    } else {
      var numberField = inputField("cardNumber", { autocomplete: "cc-number", inputmode: "numeric", type: "text", placeholder: t("numberPlaceholder") })
      els.brand = el("span", { class: "brand", "aria-hidden": "true" })
      numberField.insertBefore(els.brand, numberField.querySelector(".error"))
      form.appendChild(numberField)
    }
    // Spec: the instalment selector sits under the card number (also for saved cards).
    if (session.instalments.enabled) form.appendChild(instalmentSelect())
    var row = el("div", { class: "row" })
    if (config.mode !== "saved-card") row.appendChild(inputField("expirationDate", { autocomplete: "cc-exp", inputmode: "numeric", type: "text", placeholder: t("expiryPlaceholder"), maxlength: "7" }))
    row.appendChild(inputField("cvv", { autocomplete: "cc-csc", inputmode: "numeric", type: "password", placeholder: t("cvvPlaceholder"), maxlength: "4" }))
    form.appendChild(row)
    if (cc.hasHolderEmail) form.appendChild(inputField("holderEmail", { autocomplete: "email", type: "email" }))
    els.status = el("div", { class: "status", id: "pgs-status", role: "status" })
    form.appendChild(els.status)
    root.appendChild(form)
    els.stage = el("div", { class: "stage", id: "pgs-stage" })
    root.appendChild(els.stage)
    var state = refresh(null)
    toParent({ type: "rendered", state: state })
  }

  function applyLocale(next) {
    locale = MESSAGES[next] ? next : "en-US"
    document.documentElement.lang = locale
    Array.prototype.forEach.call(document.querySelectorAll("[data-label]"), function (node) {
      node.textContent = t(node.getAttribute("data-label"))
    })
    if (els.cardNumber) els.cardNumber.placeholder = t("numberPlaceholder")
    if (els.expirationDate) els.expirationDate.placeholder = t("expiryPlaceholder")
    if (els.instalments) fillInstalmentOptions()
    refresh(null)
  }

  function applyCssVars(vars) {
    Object.keys(vars || {}).forEach(function (name) {
      if (/^--lib-[a-z-]+$/.test(name)) document.documentElement.style.setProperty(name, String(vars[name]))
    })
  }

  function setStatus(text, kind) {
    if (!els.status) return
    els.status.textContent = text || ""
    els.status.className = "status" + (kind ? " " + kind : "")
  }

  function setBusy(value) {
    busy = value
    Array.prototype.forEach.call(root.querySelectorAll("input, select"), function (node) {
      if (node !== els.instalments) node.disabled = value
    })
    updateInstalments()
  }

  // ---- payment ----

  function browserInfo() {
    return {
      user_agent: navigator.userAgent,
      // Assumption: a page cannot read the Accept header its browser sent; this is Chromium's default for documents.
      accept_header: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      java_enabled: typeof navigator.javaEnabled === "function" ? Boolean(navigator.javaEnabled()) : false,
      color_depth: screen.colorDepth || 24,
      screen_height: screen.height || 0,
      screen_width: screen.width || 0,
      time_zone_offset: new Date().getTimezoneOffset(),
      language: navigator.language || "en-US",
    }
  }

  function payBody(customer) {
    var body = { browser_info: browserInfo(), number_of_instalments: selectedInstalments() }
    if (customer && Object.keys(customer).length) body.customer = customer
    if (els.holderName && els.holderName.value.trim()) body.holder_name = els.holderName.value.trim()
    if (els.holderEmail && els.holderEmail.value.trim()) body.holder_email = els.holderEmail.value.trim()
    if (config.mode === "saved-card") {
      body.type = "saved_card"
      body.payment_method_id = config.data.paymentMethodId
      body.cvv = els.cvv.value.trim()
    } else {
      var exp = parseExpiry(els.expirationDate.value)
      body.type = "card"
      body.card = { number: digitsOf(els.cardNumber.value), cvv: els.cvv.value.trim(), expiration_month: exp.month, expiration_year: exp.year }
    }
    return body
  }

  function submit(customer) {
    if (!session || !els.cvv) return toParent({ type: "failed", error: fail("NOT_READY", "The card form is still loading") })
    if (busy) return toParent({ type: "failed", error: fail("IN_PROGRESS", "A payment is already being processed") })
    showAll = true
    var state = refresh(null)
    if (!state.isValid) return toParent({ type: "failed", error: fail("VALIDATION_ERROR", "Some fields are invalid", { invalidFields: state.invalidFields }) })
    var body = payBody(customer)
    setBusy(true)
    setStatus(t("processing"))
    api("POST", "/pay", body)
      .then(handleExecution)
      .then(
        function (transaction) {
          setBusy(false)
          finish(transaction)
        },
        function (error) {
          setBusy(false)
          clearStage()
          setStatus(error.code === "SESSION_ALREADY_PAID" ? t("paid") : t("failed"), "error")
          toParent({ type: "failed", error: error })
        },
      )
  }

  /** An API reply to a transaction, following every step the execution response asks for. */
  function handleExecution(reply) {
    if (!reply.ok) {
      var b = reply.body || {}
      var extra = { status: reply.status }
      if (b.errors) extra.errors = b.errors
      if (b.processing_code) extra.processing_code = b.processing_code
      return Promise.reject(fail(b.error || (reply.status === 422 ? "VALIDATION_ERROR" : "REQUEST_FAILED"), b.message || (b.errors && b.errors[0] && b.errors[0].property + " " + b.errors[0].message) || t("failed"), extra))
    }
    var r = reply.body
    if (r.result) return Promise.resolve(r.result)
    if (r.action && r.action.type === "THREE_DS_2_FINGERPRINT") return fingerprint(r.action).then(handleExecution)
    if (r.action && r.action.type === "THREE_DS_2_CHALLENGE") return challenge(r.action).then(handleExecution)
    if (r.redirect) return followInFrame(r.redirect.transaction_id, r.redirect.url, null)
    if (r.form_submit) return followInFrame(r.form_submit.transaction_id, r.form_submit.url, r.form_submit.data)
    return Promise.reject(fail("UNEXPECTED_RESPONSE", "The gateway answered without a result or a next step"))
  }

  function decodeToken(token) {
    return JSON.parse(atob(token))
  }
  function b64json(value) {
    return btoa(JSON.stringify(value))
  }
  function delay(ms) {
    return new Promise(function (resolve) {
      setTimeout(resolve, ms)
    })
  }

  /** A form POSTed into a child iframe of this frame (hidden for fingerprint and form steps). */
  function postInto(frameName, url, fields, visible) {
    var frame = el("iframe", { name: frameName, title: "3-D Secure", class: visible ? "stage-frame" : "hidden-frame" })
    els.stage.appendChild(frame)
    var form = el("form", { method: "POST", action: url, target: frameName, class: "hidden-form" })
    Object.keys(fields).forEach(function (k) {
      form.appendChild(el("input", { type: "hidden", name: k, value: String(fields[k]) }))
    })
    els.stage.appendChild(form)
    form.submit()
    return frame
  }

  function clearStage() {
    if (els.stage) els.stage.innerHTML = ""
    document.body.classList.remove("staging")
    flow = null
  }

  // Fingerprint: hidden method iframe, then the fixed wait (5 s in the spec; the sandbox setting in tests).
  function fingerprint(action) {
    var token = decodeToken(action.token)
    var submitted = Boolean(token.three_ds_method_url)
    setStatus(t("authenticating"))
    var methodLoaded = Promise.resolve()
    if (submitted) {
      var methodFrame = postInto("pgs-3ds-method", token.three_ds_method_url, {
        threeDSMethodData: b64json({ threeDSServerTransID: token.three_ds_server_trans_id, threeDSMethodNotificationURL: token.three_ds_method_notification_url }),
      }, false)
      // The fixed wait is the minimum; never go on before the method page has taken the form (at most 10 s).
      methodLoaded = new Promise(function (resolve) {
        methodFrame.addEventListener("load", resolve)
        setTimeout(resolve, 10000)
      })
    }
    var wait = submitted ? session.fingerprint_wait_ms : 0
    return Promise.all([delay(wait), methodLoaded]).then(function () {
      clearStage()
      return api("POST", "/three-ds/" + encodeURIComponent(token.three_ds_server_trans_id) + "/request-authentication", {
        transaction_id: action.transaction_id,
        fingerprint_result: btoa(submitted ? "Y" : "N"),
        payment_data: action.payment_data,
      })
    })
  }

  // Challenge: the ACS page inside this frame; only a CHALLENGE_RESPONSE from the ACS origin counts.
  function challenge(action) {
    var token = decodeToken(action.token)
    setStatus(t("authenticating"))
    document.body.classList.add("staging")
    return new Promise(function (resolve) {
      flow = {
        kind: "challenge",
        origin: new URL(token.acs_url, location.href).origin,
        resolve: function (transStatus) {
          clearStage()
          resolve(
            api("POST", "/three-ds/authentication-completed", {
              transaction_id: action.transaction_id,
              session_id: token.three_ds_server_trans_id,
              trans_status: transStatus,
              payment_data: action.payment_data,
            }),
          )
        },
      }
      postInto("pgs-3ds-challenge", token.acs_url, {
        creq: b64json({
          threeDSServerTransID: token.three_ds_server_trans_id,
          acsTransID: token.acs_trans_id,
          messageVersion: token.message_version,
          messageType: "CReq",
          challengeWindowSize: token.challenge_window_size,
        }),
      }, true)
    })
  }

  /**
   * Redirect (visible page) or form submit (hidden POST) inside this frame. The transaction's return_url is the
   * sandbox's /embedded/return page, which posts PGS_EMBEDDED_RETURN here; then the outcome is read by status.
   */
  function followInFrame(transactionId, url, formData) {
    setStatus(formData ? t("processing") : t("authenticating"))
    return new Promise(function (resolve, reject) {
      var frame
      flow = {
        kind: "return",
        origin: location.origin,
        resolve: function () {
          clearStage()
          api("GET", "/transactions/" + encodeURIComponent(transactionId)).then(function (reply) {
            if (reply.ok && reply.body && reply.body.transaction) resolve(reply.body.transaction)
            else reject(fail("REQUEST_FAILED", "Could not read the transaction outcome", { status: reply.status }))
          })
        },
        source: function () {
          return frame && frame.contentWindow
        },
      }
      if (formData) frame = postInto("pgs-form-step", url, formData, false)
      else {
        document.body.classList.add("staging")
        frame = el("iframe", { name: "pgs-redirect", title: "Payment authentication", class: "stage-frame", src: url })
        els.stage.appendChild(frame)
      }
    })
  }

  function finish(tx) {
    var response = {
      approved: Boolean(tx.approved),
      status: tx.status,
      transaction_id: tx.id,
      session_id: config.sessionId,
      processing_code: tx.processing_code || null,
      response_message: tx.response_message || null,
    }
    if (tx.approved) {
      setStatus(t("approved"), "ok")
      setBusy(true) // paid: the form stays locked
    } else if (tx.status !== "PENDING") setStatus(t("declined"), "error")
    toParent({ type: "result", response: response })
  }

  // ---- messages ----

  function onParentMessage(msg) {
    if (!msg || typeof msg.type !== "string") return
    if (msg.type === "init" && !config) return init(msg)
    if (!config) return
    switch (msg.type) {
      case "validate":
        showAll = true
        refresh(null)
        break
      case "locale":
        applyLocale(msg.locale)
        break
      case "submit":
        submit(msg.customer)
        break
      case "request":
        bridgeRequest(msg)
        break
    }
  }

  function bridgeRequest(msg) {
    var routes = { alternative: ["POST", "/alternative-payment"] }
    var route = routes[msg.op]
    if (!route) return toParent({ type: "response", rid: msg.rid, ok: false, status: 400, body: { error: "UNKNOWN_OPERATION" } })
    api(route[0], route[1], msg.body).then(function (reply) {
      toParent({ type: "response", rid: msg.rid, ok: reply.ok, status: reply.status, body: reply.body })
    })
  }

  function init(msg) {
    config = msg
    config.customerConfig = msg.customerConfig || {}
    locale = MESSAGES[msg.locale] ? msg.locale : "en-US"
    document.documentElement.lang = locale
    applyCssVars(msg.cssVars)
    api("GET", "").then(function (reply) {
      if (!reply.ok) {
        var error = fail(reply.status === 401 ? "INVALID_CLIENT_KEY" : reply.status === 404 ? "SESSION_NOT_FOUND" : "REQUEST_FAILED", (reply.body && reply.body.error) || "Could not load the payment session", { status: reply.status })
        return toParent({ type: "error", error: error })
      }
      session = reply.body
      if (config.mode === "bridge") return toParent({ type: "session", session: { id: session.id, amount: session.amount, currency: session.currency } })
      render()
      if (session.paid) {
        setStatus(t("paid"), "error")
        setBusy(true)
      }
    })
  }

  window.addEventListener("message", function (event) {
    if (event.source === window.parent && event.origin === PARENT) return onParentMessage(event.data)
    // 3-D Secure and return pages: only from the expected origin, only while their step runs.
    var data = event.data
    if (!flow || event.origin !== flow.origin || !data) return
    if (flow.kind === "challenge" && data.type === "CHALLENGE_RESPONSE" && typeof data.trans_status === "string") flow.resolve(data.trans_status)
    else if (flow.kind === "return" && data.type === "PGS_EMBEDDED_RETURN" && event.source === flow.source()) flow.resolve()
  })

  // Keep the host's iframe as tall as the content.
  var lastHeight = -1
  function reportHeight() {
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height)
    if (h !== lastHeight) {
      lastHeight = h
      toParent({ type: "resize", height: h })
    }
  }
  if (typeof ResizeObserver === "function") new ResizeObserver(reportHeight).observe(document.documentElement)
  window.addEventListener("load", reportHeight)

  if (!/^https?:\/\/[^/]+$/.test(PARENT)) root.textContent = "This page is part of the embedded payment fields and must be opened by embedded-fields.js."
  else toParent({ type: "ready" })
})()
