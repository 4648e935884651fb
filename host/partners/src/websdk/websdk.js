// @ts-check
/**
 * The sandbox's WebSDK frame, speaking the protocol of `@sumsub/websdk-react`: announce itself
 * (`idCheck.onReady` with the frame id from `?_=`), take `idCheck.init` (access token, lang, theme),
 * open an SDK session, then walk the user through an identity document and a selfie, submit, and
 * follow the review. Every message to the parent carries the frame's `sessionId`; an
 * `invalid-token` answer asks the parent for a new token (`idCheck.updateAccessToken`).
 * Plain browser JavaScript, served as is: no build step, no inline code (the page's CSP).
 */
;(() => {
  "use strict"

  const TIMEOUT_MS = 30000
  const POLL_MS = 2000
  const MAX_BYTES = 5 * 1024 * 1024
  const ACCEPT = "image/jpeg,image/png,image/webp"
  /** @type {ReadonlyArray<string>} */
  const IDENTITY_TYPES = ["PASSPORT", "ID_CARD", "DRIVERS"]

  const STRINGS = {
    en: {
      loading: "Loading…",
      title: "Verify your identity",
      intro: "Upload a photo of an identity document and a selfie.",
      uploadAgain: "Please upload again",
      keptHint: "Send again what the reviewer asks for; the other documents are kept.",
      reasons: "Reasons:",
      identityStep: "Identity document",
      docType: "Document type",
      PASSPORT: "Passport",
      ID_CARD: "ID card",
      DRIVERS: "Driver's license",
      docFile: "Photo of the document",
      selfieStep: "Selfie",
      selfieFile: "A photo of your face",
      /** @param {string} name */
      uploaded: (name) => `Uploaded: ${name}`,
      /** @param {string} name */
      sentBefore: (name) => `Sent before: ${name}`,
      /** @param {string} name */
      uploading: (name) => `Uploading ${name}…`,
      /** @param {string} name */
      announceStart: (name) => `Upload started: ${name}`,
      /** @param {string} name */
      announceDone: (name) => `${name} is uploaded`,
      progress: "Upload progress",
      submit: "Submit",
      pendingTitle: "Your documents are being checked",
      pendingText: "This usually takes a few minutes. You can close this page.",
      greenTitle: "You are verified",
      greenText: "Your identity has been confirmed.",
      finalTitle: "Verification declined",
      errorTitle: "Something went wrong",
      tryAgain: "Try again",
      timeout: `Request timed out after ${TIMEOUT_MS} ms`,
      network: "Network error",
      tooLarge: "The file is larger than 5 MB",
      tokenGone: "This verification link has expired. Close it and start again.",
    },
    ru: {
      loading: "Загрузка…",
      title: "Подтвердите личность",
      intro: "Загрузите фото документа, удостоверяющего личность, и селфи.",
      uploadAgain: "Пожалуйста, загрузите документы ещё раз",
      keptHint: "Отправьте заново то, что просит проверяющий; остальные документы сохранятся.",
      reasons: "Причины:",
      identityStep: "Документ, удостоверяющий личность",
      docType: "Тип документа",
      PASSPORT: "Паспорт",
      ID_CARD: "Удостоверение личности",
      DRIVERS: "Водительское удостоверение",
      docFile: "Фото документа",
      selfieStep: "Селфи",
      selfieFile: "Фото вашего лица",
      /** @param {string} name */
      uploaded: (name) => `Загружено: ${name}`,
      /** @param {string} name */
      sentBefore: (name) => `Отправлено ранее: ${name}`,
      /** @param {string} name */
      uploading: (name) => `Загружается ${name}…`,
      /** @param {string} name */
      announceStart: (name) => `Загрузка началась: ${name}`,
      /** @param {string} name */
      announceDone: (name) => `Файл ${name} загружен`,
      progress: "Ход загрузки",
      submit: "Отправить",
      pendingTitle: "Ваши документы проверяются",
      pendingText: "Обычно это занимает несколько минут. Эту страницу можно закрыть.",
      greenTitle: "Личность подтверждена",
      greenText: "Ваша личность подтверждена.",
      finalTitle: "В верификации отказано",
      errorTitle: "Что-то пошло не так",
      tryAgain: "Повторить",
      timeout: `Время ожидания запроса истекло (${TIMEOUT_MS} мс)`,
      network: "Ошибка сети",
      tooLarge: "Файл больше 5 МБ",
      tokenGone: "Срок действия ссылки истёк. Закройте её и начните заново.",
    },
  }

  /** @typedef {typeof STRINGS.en} Strings */
  /** @typedef {{ reviewAnswer: "GREEN" | "RED", rejectLabels?: string[], reviewRejectType?: "RETRY" | "FINAL", moderationComment?: string }} ReviewResult */
  /** @typedef {{ reviewStatus: string, levelName: string, attemptId?: string, attemptCnt: number, reviewResult?: ReviewResult }} Status */
  /** @typedef {{ idDocType: string, fileName: string, attemptId?: string }} FileRef */
  /** @typedef {"IDENTITY" | "SELFIE"} StepName */

  /** An SDK failure: `code` is what `idCheck.onError` reports (network, invalid-token, server, request). */
  class SdkError extends Error {
    /**
     * @param {string} code
     * @param {string} message
     */
    constructor(code, message) {
      super(message)
      this.code = code
    }
  }

  const query = new URLSearchParams(location.search)
  const frameId = query.get("_") || ""
  const sessionId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")

  const state = {
    /** @type {Strings} */
    t: STRINGS.en,
    /** @type {string | null} */
    accessToken: null,
    /** @type {string | undefined} */
    country: undefined,
    started: false,
    initialized: false,
    applicantId: "",
    /** @type {Status | null} */
    status: null,
    /** @type {Record<StepName, FileRef | null>} */
    files: { IDENTITY: null, SELFIE: null },
    /** @type {Set<StepName>} */
    stepsOpened: new Set(),
    uploading: 0,
    submitting: false,
    /** @type {Promise<void>} */
    uploads: Promise.resolve(),
    /** @type {Promise<void> | null} */
    refreshing: null,
    /** @type {((token: string | null, error: string) => void) | null} */
    tokenWaiter: null,
    /** @type {ReturnType<typeof setInterval> | undefined} */
    poll: undefined,
    polling: false,
    /** @type {() => void} */
    render: () => {},
    lastHeight: -1,
  }

  /** Elements of the current view that updates touch. */
  const ui = {
    /** @type {HTMLElement | null} */ error: null,
    /** @type {HTMLElement | null} */ progressRow: null,
    /** @type {HTMLProgressElement | null} */ progress: null,
    /** @type {HTMLElement | null} */ progressLabel: null,
    /** @type {HTMLButtonElement | null} */ submit: null,
    /** @type {Record<StepName, HTMLElement | null>} */ done: { IDENTITY: null, SELFIE: null },
  }

  const app = /** @type {HTMLElement} */ (document.getElementById("app"))
  const live = /** @type {HTMLElement} */ (document.getElementById("live"))

  // ---- messages to and from the parent (the SDK) ----

  /**
   * @param {string} method
   * @param {Record<string, unknown>} [payload]
   */
  const post = (method, payload = {}) => window.parent.postMessage({ ...payload, method, frameId, sessionId }, "*")

  /** @param {unknown} lang */
  const setLang = (lang) => {
    const ru = typeof lang === "string" && /^ru\b/i.test(lang)
    state.t = ru ? STRINGS.ru : STRINGS.en
    document.documentElement.lang = ru ? "ru" : "en"
  }

  /** @param {unknown} theme */
  const setTheme = (theme) => {
    document.documentElement.dataset["theme"] = theme === "dark" ? "dark" : "light"
  }

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return
    const data = event.data
    if (typeof data !== "object" || data === null || typeof data.method !== "string") return
    switch (data.method) {
      case "idCheck.init":
        if (state.started) return
        state.started = true
        state.accessToken = typeof data.accessToken === "string" ? data.accessToken : null
        state.country = typeof data.country === "string" && /^[A-Z]{3}$/.test(data.country) ? data.country : undefined
        setLang(data.lang)
        if (data.theme) setTheme(data.theme)
        void openSession()
        return
      case "idCheck.updateAccessToken": {
        const waiter = state.tokenWaiter
        state.tokenWaiter = null
        const token = typeof data.accessToken === "string" && data.accessToken ? data.accessToken : null
        if (token) state.accessToken = token
        if (waiter) waiter(token, typeof data.error === "string" ? data.error : "")
        return
      }
      case "idCheck.callSetLanguage":
        setLang(data.language)
        state.render()
        return
      case "idCheck.callSetTheme":
        setTheme(data.theme)
        return
      default:
    }
  })

  // ---- HTTP ----

  /**
   * One request by XHR (upload progress, a 30 s timeout).
   * @param {{ method: string, path: string, json?: unknown, file?: File, onProgress?: (fraction: number) => void }} req
   * @returns {Promise<{ status: number, body: any }>}
   */
  const send = (req) =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest()
      xhr.open(req.method, req.path)
      xhr.timeout = TIMEOUT_MS
      if (state.accessToken) xhr.setRequestHeader("X-Access-Token", state.accessToken)
      const onProgress = req.onProgress
      if (onProgress) {
        xhr.upload.addEventListener("progress", (e) => {
          if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total)
        })
      }
      xhr.addEventListener("timeout", () => reject(new SdkError("network", state.t.timeout)))
      xhr.addEventListener("error", () => reject(new SdkError("network", state.t.network)))
      xhr.addEventListener("abort", () => reject(new SdkError("network", state.t.network)))
      xhr.addEventListener("load", () => {
        let body = null
        try {
          body = xhr.responseText ? JSON.parse(xhr.responseText) : null
        } catch {
          body = null
        }
        resolve({ status: xhr.status, body })
      })
      if (req.file) {
        xhr.setRequestHeader("Content-Type", req.file.type || "application/octet-stream")
        xhr.setRequestHeader("X-File-Name", encodeURIComponent(req.file.name))
        xhr.send(req.file)
      } else if (req.json !== undefined) {
        xhr.setRequestHeader("Content-Type", "application/json")
        xhr.send(JSON.stringify(req.json))
      } else xhr.send()
    })

  /** @param {{ status: number, body: any }} res */
  const isInvalidToken = (res) => res.status === 401 && res.body !== null && res.body.errorName === "invalid-token"

  /** @param {{ status: number, body: any }} res */
  const failure = (res) => {
    const description = res.body && typeof res.body.description === "string" ? res.body.description : `HTTP ${res.status}`
    return new SdkError(res.status >= 500 ? "server" : "request", description)
  }

  const openSessionRequest = () => send({ method: "POST", path: "/resources/sdk/session", json: { sessionId } })

  /**
   * Asks the parent for a new access token (the SDK calls the host's expiration handler), then
   * binds it to this session. Concurrent callers share one refresh.
   * @param {string} reason
   */
  const refreshToken = (reason) =>
    (state.refreshing ??= new Promise((resolve, reject) => {
      state.tokenWaiter = (token, error) => (token ? resolve(undefined) : reject(new SdkError("invalid-token", error || state.t.tokenGone)))
      post("idCheck.onError", { code: "invalid-token", error: reason })
    })
      .then(async () => {
        const res = await openSessionRequest()
        if (res.status < 200 || res.status >= 300) throw isInvalidToken(res) ? new SdkError("invalid-token", state.t.tokenGone) : failure(res)
      })
      .finally(() => {
        state.refreshing = null
      }))

  /**
   * A request that survives one token refresh; resolves with the JSON of a 2xx answer.
   * @param {{ method: string, path: string, json?: unknown, file?: File, onProgress?: (fraction: number) => void }} req
   */
  const api = async (req) => {
    let res = await send(req)
    if (isInvalidToken(res)) {
      await refreshToken(res.body.description)
      res = await send(req)
    }
    if (res.status >= 200 && res.status < 300) return res.body
    if (isInvalidToken(res)) throw new SdkError("invalid-token", state.t.tokenGone)
    throw failure(res)
  }

  // ---- DOM helpers ----

  /**
   * @param {string} tag
   * @param {Record<string, string | boolean | undefined>} [attrs]
   * @param {Array<Node | string | null | undefined | false>} children
   * @returns {HTMLElement}
   */
  const h = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag)
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === false) continue
      node.setAttribute(key, value === true ? "" : value)
    }
    for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child)
    return node
  }

  /**
   * Starts a view: forgets the previous view's elements and remembers how to draw this one again
   * (a language change redraws it).
   * @param {() => void} render
   */
  const beginView = (render) => {
    state.render = render
    ui.error = null
    ui.progressRow = null
    ui.progress = null
    ui.progressLabel = null
    ui.submit = null
    ui.done = { IDENTITY: null, SELFIE: null }
  }

  /** @param {Array<Node | null | undefined | false>} nodes */
  const show = (...nodes) => {
    const kept = nodes.filter((n) => n !== null && n !== undefined && n !== false)
    app.replaceChildren(...kept)
    app.removeAttribute("aria-busy")
  }

  const errorBox = () => (ui.error = h("p", { class: "error", role: "alert", "data-testid": "sumsub-error" }))

  /** @param {string} message */
  const setError = (message) => {
    if (ui.error) ui.error.textContent = message
  }

  /** @param {string} message */
  const announce = (message) => {
    live.textContent = message
  }

  // ---- views ----

  const renderLoading = () => {
    beginView(renderLoading)
    show(
      h(
        "div",
        { class: "center" },
        h("div", { class: "spinner", "aria-hidden": "true" }),
        h("p", { class: "muted", "data-testid": "sumsub-status", "data-status": "loading" }, state.t.loading),
      ),
    )
    app.setAttribute("aria-busy", "true")
  }

  /**
   * @param {string} message
   * @param {(() => void) | null} retry
   */
  const renderError = (message, retry) => {
    beginView(() => renderError(message, retry))
    const button = retry ? h("button", { type: "button", class: "primary" }, state.t.tryAgain) : null
    if (button && retry) button.addEventListener("click", retry)
    show(h("h1", { "data-testid": "sumsub-status", "data-status": "error" }, state.t.errorTitle), errorBox(), button)
    setError(message)
  }

  const renderPending = () => {
    beginView(renderPending)
    show(
      h(
        "div",
        { class: "center" },
        h("div", { class: "spinner", "aria-hidden": "true" }),
        h("h1", { "data-testid": "sumsub-status", "data-status": state.status?.reviewStatus ?? "pending" }, state.t.pendingTitle),
        h("p", { class: "muted" }, state.t.pendingText),
      ),
      errorBox(),
    )
  }

  const renderVerified = () => {
    beginView(renderVerified)
    show(
      h(
        "div",
        { class: "center" },
        h("div", { class: "badge ok", "aria-hidden": "true" }, "✓"),
        h("h1", { "data-testid": "sumsub-status", "data-status": "GREEN" }, state.t.greenTitle),
        h("p", { class: "muted" }, state.t.greenText),
      ),
    )
  }

  const renderDeclined = () => {
    beginView(renderDeclined)
    const comment = state.status?.reviewResult?.moderationComment
    show(
      h(
        "div",
        { class: "center" },
        h("div", { class: "badge declined", "aria-hidden": "true" }, "✕"),
        h("h1", { "data-testid": "sumsub-status", "data-status": "RED-FINAL" }, state.t.finalTitle),
        comment ? h("p", {}, comment) : null,
      ),
    )
  }

  /** @param {string} label */
  const humanLabel = (label) => label.charAt(0) + label.slice(1).toLowerCase().replaceAll("_", " ")

  /** @param {StepName} step */
  const openStep = (step) => {
    if (state.stepsOpened.has(step)) return
    state.stepsOpened.add(step)
    post("idCheck.onStepInitiated", { idDocSetType: step })
  }

  /** After a RED RETRY: documents may be sent again, and at least one must be. */
  const isRetry = () => state.status?.reviewStatus === "completed" && state.status.reviewResult?.reviewAnswer === "RED"

  /**
   * Whether a document was sent in the current attempt (after a RED RETRY the earlier ones carry over).
   * @param {FileRef | null} file
   */
  const isFresh = (file) => file !== null && (!isRetry() || file.attemptId === state.status?.attemptId)

  const updateForm = () => {
    for (const step of /** @type {StepName[]} */ (["IDENTITY", "SELFIE"])) {
      const file = state.files[step]
      const done = ui.done[step]
      if (done) {
        const fresh = isFresh(file)
        done.textContent = file ? (fresh ? `✓ ${state.t.uploaded(file.fileName)}` : state.t.sentBefore(file.fileName)) : ""
        done.classList.toggle("earlier", file !== null && !fresh)
        done.closest(".step")?.classList.toggle("complete", fresh)
      }
    }
    const ready = state.files.IDENTITY !== null && state.files.SELFIE !== null && (isFresh(state.files.IDENTITY) || isFresh(state.files.SELFIE))
    if (ui.submit) ui.submit.disabled = !ready || state.uploading > 0 || state.submitting
  }

  /**
   * @param {File} file
   * @param {string} idDocType
   * @param {StepName} step
   */
  const upload = (file, idDocType, step) => {
    state.uploading++
    updateForm()
    state.uploads = state.uploads.then(async () => {
      setError("")
      try {
        if (file.size > MAX_BYTES) throw new SdkError("request", state.t.tooLarge)
        if (ui.progressRow && ui.progress && ui.progressLabel) {
          ui.progress.value = 0
          ui.progressLabel.textContent = state.t.uploading(file.name)
          ui.progressRow.hidden = false
        }
        announce(state.t.announceStart(file.name))
        const country = step === "IDENTITY" && state.country ? `&country=${state.country}` : ""
        const item = await api({
          method: "POST",
          path: `/resources/sdk/applicants/${encodeURIComponent(state.applicantId)}/idDoc?idDocType=${idDocType}${country}`,
          file,
          onProgress: (fraction) => {
            if (ui.progress) ui.progress.value = Math.round(fraction * 100)
          },
        })
        const fileName = item && item.fileMetadata && typeof item.fileMetadata.fileName === "string" ? item.fileMetadata.fileName : file.name
        state.files[step] = { idDocType, fileName, attemptId: item && typeof item.attemptId === "string" ? item.attemptId : state.status?.attemptId }
        post("idCheck.onStepCompleted", { idDocSetType: step })
        announce(state.t.announceDone(fileName))
        if (step === "IDENTITY") openStep("SELFIE")
      } catch (error) {
        const e = error instanceof SdkError ? error : new SdkError("network", String(error))
        if (e.code === "network" || e.code === "server") post("idCheck.onError", { code: e.code, error: e.message })
        announce("")
        setError(e.message)
      } finally {
        state.uploading--
        if (ui.progressRow) ui.progressRow.hidden = true
        updateForm()
      }
    })
  }

  const submit = async () => {
    state.submitting = true
    setError("")
    updateForm()
    try {
      /** @type {Status} */
      const status = await api({ method: "POST", path: `/resources/sdk/applicants/${encodeURIComponent(state.applicantId)}/submit` })
      const resubmission = state.status?.reviewStatus === "completed"
      state.status = status
      // after a RED RETRY the real SDK reports a resubmission
      post(resubmission ? "idCheck.onApplicantResubmitted" : "idCheck.onApplicantSubmitted", {})
      post("idCheck.onApplicantStatusChanged", { levelName: status.levelName, reviewStatus: status.reviewStatus, attemptCnt: status.attemptCnt })
      renderStatus()
    } catch (error) {
      const e = error instanceof SdkError ? error : new SdkError("network", String(error))
      if (e.code === "network" || e.code === "server") post("idCheck.onError", { code: e.code, error: e.message })
      setError(e.message)
    } finally {
      state.submitting = false
      updateForm()
    }
  }

  const renderForm = () => {
    beginView(renderForm)
    const t = state.t
    const result = state.status?.reviewResult
    const retry = isRetry()
    const labels = retry && result?.rejectLabels?.length ? result.rejectLabels : []

    const docType = /** @type {HTMLSelectElement} */ (
      h(
        "select",
        { id: "sumsub-doc-type", "data-testid": "sumsub-doc-type" },
        ...IDENTITY_TYPES.map((type) => h("option", { value: type }, t[/** @type {"PASSPORT"} */ (type)])),
      )
    )
    docType.value = state.files.IDENTITY?.idDocType ?? "PASSPORT"
    const docFile = /** @type {HTMLInputElement} */ (h("input", { type: "file", id: "sumsub-doc-file", "data-testid": "sumsub-doc-file", accept: ACCEPT }))
    const selfieFile = /** @type {HTMLInputElement} */ (
      h("input", { type: "file", id: "sumsub-selfie-file", "data-testid": "sumsub-selfie-file", accept: ACCEPT, capture: "user" })
    )
    ui.done.IDENTITY = h("p", { class: "done", id: "sumsub-doc-done" })
    ui.done.SELFIE = h("p", { class: "done", id: "sumsub-selfie-done" })
    docFile.setAttribute("aria-describedby", "sumsub-doc-done")
    selfieFile.setAttribute("aria-describedby", "sumsub-selfie-done")

    docFile.addEventListener("change", () => {
      const file = docFile.files?.[0]
      docFile.value = ""
      if (file) upload(file, docType.value, "IDENTITY")
    })
    selfieFile.addEventListener("focus", () => openStep("SELFIE"))
    selfieFile.addEventListener("change", () => {
      const file = selfieFile.files?.[0]
      selfieFile.value = ""
      openStep("SELFIE")
      if (file) upload(file, "SELFIE", "SELFIE")
    })

    const progress = /** @type {HTMLProgressElement} */ (
      h("progress", { id: "sumsub-progress", "data-testid": "sumsub-progress", max: "100", "aria-label": t.progress })
    )
    progress.value = 0
    const progressLabel = h("label", { for: "sumsub-progress" })
    const progressRow = h("div", { class: "progress", hidden: state.uploading === 0 }, progressLabel, progress)
    const submitButton = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "primary", "data-testid": "sumsub-submit" }, t.submit))
    submitButton.addEventListener("click", () => void submit())

    show(
      h("h1", { "data-testid": "sumsub-status", "data-status": retry ? "RED-RETRY" : "init" }, t.title),
      retry
        ? h(
            "div",
            { class: "notice", role: "note" },
            h("strong", {}, t.uploadAgain),
            result?.moderationComment ? h("p", {}, result.moderationComment) : null,
            h("p", {}, t.keptHint),
            labels.length > 0 ? h("p", {}, t.reasons) : null,
            labels.length > 0 ? h("ul", {}, ...labels.map((label) => h("li", {}, humanLabel(label)))) : null,
          )
        : h("p", { class: "muted" }, t.intro),
      h(
        "section",
        { class: "step", "aria-labelledby": "sumsub-step-identity" },
        h("h2", { id: "sumsub-step-identity" }, h("span", { class: "num", "aria-hidden": "true" }, "1"), t.identityStep),
        h("label", { for: "sumsub-doc-type" }, t.docType),
        docType,
        h("label", { for: "sumsub-doc-file" }, t.docFile),
        docFile,
        ui.done.IDENTITY,
      ),
      h(
        "section",
        { class: "step", "aria-labelledby": "sumsub-step-selfie" },
        h("h2", { id: "sumsub-step-selfie" }, h("span", { class: "num", "aria-hidden": "true" }, "2"), t.selfieStep),
        h("label", { for: "sumsub-selfie-file" }, t.selfieFile),
        selfieFile,
        ui.done.SELFIE,
      ),
      progressRow,
      errorBox(),
      submitButton,
    )
    ui.progressRow = progressRow
    ui.progress = progress
    ui.progressLabel = progressLabel
    ui.submit = submitButton
    updateForm()
    openStep("IDENTITY")
    if (state.files.IDENTITY) openStep("SELFIE")
  }

  // ---- status and polling ----

  const stopPolling = () => {
    if (state.poll !== undefined) clearInterval(state.poll)
    state.poll = undefined
  }

  /** @param {Status} s */
  const statusKey = (s) => JSON.stringify([s.reviewStatus, s.attemptCnt, s.levelName, s.reviewResult ?? null])

  const pollOnce = async () => {
    if (state.polling || !state.status) return
    state.polling = true
    try {
      /** @type {Status} */
      const next = await api({ method: "GET", path: `/resources/sdk/applicants/${encodeURIComponent(state.applicantId)}/status` })
      setError("")
      if (statusKey(next) !== statusKey(state.status)) {
        const retry = next.reviewStatus === "completed" && next.reviewResult?.reviewRejectType === "RETRY"
        // after a RED RETRY: the documents that carry over into the resubmission
        const session = retry ? await fetchSession() : null
        state.status = next
        if (session) {
          applySession(session)
          state.stepsOpened = new Set()
        }
        post("idCheck.onApplicantStatusChanged", {
          levelName: next.levelName,
          reviewStatus: next.reviewStatus,
          attemptCnt: next.attemptCnt,
          ...(next.reviewResult ? { reviewResult: next.reviewResult } : {}),
        })
        renderStatus()
      }
    } catch (error) {
      setError(error instanceof Error ? error.message : String(error))
    } finally {
      state.polling = false
    }
  }

  const renderStatus = () => {
    stopPolling()
    const s = state.status
    if (!s) return renderLoading()
    if (s.reviewStatus === "pending" || s.reviewStatus === "onHold") {
      renderPending()
      state.poll = setInterval(() => void pollOnce(), POLL_MS)
    } else if (s.reviewStatus === "completed" && s.reviewResult?.reviewAnswer === "GREEN") renderVerified()
    else if (s.reviewStatus === "completed" && s.reviewResult?.reviewRejectType === "FINAL") renderDeclined()
    else renderForm()
  }

  // ---- session ----

  /** @returns {Promise<{ applicantId: string, status: Status, files?: FileRef[] }>} */
  const fetchSession = () => api({ method: "POST", path: "/resources/sdk/session", json: { sessionId } })

  /** @param {{ applicantId: string, status: Status, files?: FileRef[] }} session */
  const applySession = (session) => {
    state.applicantId = session.applicantId
    state.status = session.status
    state.files = { IDENTITY: null, SELFIE: null }
    for (const file of session.files ?? []) state.files[IDENTITY_TYPES.includes(file.idDocType) ? "IDENTITY" : "SELFIE"] = file
  }

  const openSession = async () => {
    renderLoading()
    try {
      const session = await fetchSession()
      applySession(session)
      if (!state.initialized) {
        state.initialized = true
        post("idCheck.onInitialized")
      }
      post("idCheck.onApplicantLoaded", { applicantId: session.applicantId })
      renderStatus()
    } catch (error) {
      const e = error instanceof SdkError ? error : new SdkError("network", String(error))
      // an invalid token was reported to the parent already (its refresh failed): no second report
      if (e.code !== "invalid-token") post("idCheck.onError", { code: e.code, error: e.message })
      renderError(e.message, () => void openSession())
    }
  }

  // ---- size ----

  const reportSize = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height)
    if (height === state.lastHeight) return
    state.lastHeight = height
    post("idCheck.onResize", { height })
  }
  new ResizeObserver(reportSize).observe(document.body)

  setTheme(query.get("theme"))
  post("idCheck.onReady", { frameId })
})()
