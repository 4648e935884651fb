import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent } from "react"
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Banner, Button, Placeholder, SkeletonList, TextField } from "@wallet/kernel-react/ui"
import type { ChatMessage, Order } from "../api.ts"
import { CHAT_IMAGE_TYPES, CHAT_POLL_MS, MAX_CHAT_TEXT } from "../chatRules.ts"
import { avatarColorIndex } from "../domain.ts"
import { orderRoute } from "../routes.ts"
import { afterPoll, chatErrorKey, fileProblem, lastTheirsOf, messageTime, withSent, type ChatState } from "./chat.ts"
import { chatKeys, errorCode, keys, loadChat, markChatRead, sendChatText, uploadChatImage } from "./client.ts"
import { counterpartyOf } from "./market.ts"
import { LoadError, pageStyle } from "./marketParts.tsx"
import { OrderImage } from "./orderFiles.tsx"
import { WithOrder } from "./withOrder.tsx"

const bubbleBase: CSSProperties = {
  maxWidth: "78%",
  padding: "8px 12px 6px",
  borderRadius: 16,
  lineHeight: 1.35,
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
  display: "flex",
  flexDirection: "column",
  gap: 4,
}
const mineStyle: CSSProperties = {
  ...bubbleBase,
  alignSelf: "flex-end",
  background: "var(--wk-color-button)",
  color: "var(--wk-color-button-text)",
  borderBottomRightRadius: 4,
}
const theirsStyle: CSSProperties = {
  ...bubbleBase,
  alignSelf: "flex-start",
  background: "var(--wk-color-section-bg)",
  color: "var(--wk-color-text)",
  border: "1px solid var(--wk-color-separator)",
  borderBottomLeftRadius: 4,
}

/** One message: mine on the right, theirs on the left; a photo opens larger; the time under it. */
function Bubble({
  message,
  orderId,
  theirName,
  now,
}: {
  readonly message: ChatMessage
  readonly orderId: number
  readonly theirName: string
  readonly now: number
}) {
  const kernel = useKernel()
  const t = useT("p2p")
  const who = message.mine ? t("chat.you") : theirName
  return (
    <div style={message.mine ? mineStyle : theirsStyle} data-testid="p2p-chat-message" data-mine={message.mine} data-id={message.id}>
      {/* The author, for screen readers (the side of the bubble says it to the eye). */}
      <span style={{ position: "absolute", width: 1, height: 1, overflow: "hidden", clipPath: "inset(50%)" }}>{who}:</span>
      {message.image !== null && <OrderImage orderId={orderId} kind="chat" file={message.image} alt={t("chat.image.alt", { name: who })} />}
      {message.text !== null && <span data-testid="p2p-chat-text">{message.text}</span>}
      <time dateTime={message.createdAt} style={{ alignSelf: "flex-end", fontSize: 11, opacity: 0.7 }}>
        {messageTime(message.createdAt, now, kernel.i18n.language())}
      </time>
    </div>
  )
}

/** The composer: a text (Enter sends, Shift+Enter a new line), a photo with its progress, the refusal said plainly. */
function Composer({ orderId, onSent, onClosed }: { readonly orderId: number; readonly onSent: (message: ChatMessage) => void; readonly onClosed: () => void }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const inputId = useId()
  const [draft, setDraft] = useState("")
  const [sending, setSending] = useState(false)
  const [progress, setProgress] = useState<number | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const text = draft.trim()
  // The order closed meanwhile: read the chat again (the composer gives way to the closed note).
  const refused = (error: unknown) => {
    const code = errorCode(error)
    setProblem(t(chatErrorKey(code)))
    if (code === "chat_closed") onClosed()
  }

  const send = async () => {
    if (text.length === 0 || sending) return
    setSending(true)
    setProblem(null)
    try {
      onSent(await sendChatText(kernel, orderId, text))
      setDraft("")
    } catch (error) {
      refused(error)
    } finally {
      setSending(false)
    }
  }
  const attach = async (file: File) => {
    setProblem(null)
    const local = fileProblem(file, "image")
    if (local !== null) return setProblem(t(`chat.errors.${local}`))
    setProgress(0)
    try {
      onSent(await uploadChatImage(kernel, orderId, file, setProgress))
    } catch (error) {
      refused(error)
    } finally {
      setProgress(null)
    }
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      void send()
    }
  }

  return (
    <div
      style={{
        position: "sticky",
        bottom: 0,
        padding: "8px 12px calc(8px + var(--wk-safe-area-bottom, 0px))",
        background: "var(--wk-color-bg)",
        borderTop: "1px solid var(--wk-color-separator)",
        display: "flex",
        flexDirection: "column",
        gap: 6,
      }}
    >
      {progress !== null && (
        <div role="status" data-testid="p2p-chat-progress" style={{ display: "flex", gap: 8, alignItems: "center" }}>
          <progress max={100} value={progress} aria-label={t("chat.composer.uploading")} style={{ flex: 1 }} />
          <span>{t("chat.progress", { percent: progress })}</span>
        </div>
      )}
      {problem !== null && (
        <p role="alert" data-testid="p2p-chat-error" style={{ margin: 0, color: "var(--wk-color-destructive)" }}>
          {problem}
        </p>
      )}
      <form
        style={{ display: "flex", gap: 8, alignItems: "flex-end" }}
        onSubmit={(event) => {
          event.preventDefault()
          void send()
        }}
      >
        <label
          htmlFor={inputId}
          title={t("chat.composer.attach")}
          style={{
            flex: "none",
            width: 40,
            height: 40,
            display: "grid",
            placeItems: "center",
            borderRadius: "50%",
            cursor: progress === null ? "pointer" : "default",
            color: "var(--wk-color-link)",
            background: "var(--wk-color-secondary-bg)",
          }}
        >
          <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path
              d="M16.5 6.5 8.4 14.6a1.5 1.5 0 0 0 2.1 2.1l8.1-8.1a3.5 3.5 0 0 0-5-5L5.5 11.7a5.5 5.5 0 0 0 7.8 7.8l6.2-6.2"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
          </svg>
          <input
            id={inputId}
            data-testid="p2p-chat-attach"
            type="file"
            accept={CHAT_IMAGE_TYPES.join(",")}
            aria-label={t("chat.composer.attach")}
            disabled={progress !== null}
            style={{ position: "absolute", width: 1, height: 1, opacity: 0 }}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              event.currentTarget.value = ""
              if (file) void attach(file)
            }}
          />
        </label>
        <div style={{ flex: 1, minWidth: 0 }}>
          <TextField
            multiline
            rows={1}
            value={draft}
            onChange={setDraft}
            maxLength={MAX_CHAT_TEXT}
            placeholder={t("chat.composer.placeholder")}
            aria-label={t("chat.composer.label")}
            onKeyDown={onKeyDown}
            data-testid="p2p-chat-input"
            style={{ resize: "none", maxHeight: 120 }}
          />
        </div>
        <Button
          type="submit"
          look="primary"
          size="m"
          disabled={text.length === 0}
          loading={sending}
          loadingLabel={t("chat.composer.sending")}
          data-testid="p2p-chat-send"
        >
          {t("chat.composer.send")}
        </Button>
      </form>
    </div>
  )
}

function Chat({ order }: { readonly order: Order }) {
  const kernel = useKernel()
  const t = useT("p2p")
  const go = useGo()
  const queryClient = useQueryClient()
  const key = chatKeys.messages(order.id)
  // Short poll (every 3 s while the screen is open): each read asks only for what came after the last one.
  const query = useQuery({
    queryKey: key,
    queryFn: async (): Promise<ChatState> => {
      const before = queryClient.getQueryData<ChatState>(key)
      const page = await loadChat(kernel, order.id, before?.cursor)
      return afterPoll(queryClient.getQueryData<ChatState>(key), page)
    },
    refetchInterval: CHAT_POLL_MS,
    retry: (count, error) => !["order_not_found", "wrong_side"].includes(errorCode(error) ?? "") && count < 3,
  })
  const state = query.data
  const messages = state?.messages ?? []
  const other = counterpartyOf(order)
  const endRef = useRef<HTMLDivElement>(null)
  // "Today" for the messages' times: as of the last poll.
  const now = query.dataUpdatedAt

  // The newest message in view: scroll to it when one arrives (the first read, a poll, a message sent here).
  const count = messages.length
  useEffect(() => {
    if (count > 0) endRef.current?.scrollIntoView({ block: "end" })
  }, [count])

  // Read up to the other side's newest message; the order's badge follows at once.
  const theirs = lastTheirsOf(messages)
  const unread = state?.unread ?? 0
  const marked = useRef(0)
  useEffect(() => {
    if (theirs === undefined || unread === 0 || theirs <= marked.current) return
    marked.current = theirs
    markChatRead(kernel, order.id, theirs).then(
      (answer) => {
        queryClient.setQueryData<ChatState>(key, (current) => (current === undefined ? current : { ...current, unread: answer.unread }))
        queryClient.setQueryData<Order>(keys.order(order.id), (current) => (current === undefined ? current : { ...current, unreadMessages: answer.unread }))
        void queryClient.invalidateQueries({ queryKey: keys.active })
      },
      () => {
        marked.current = 0
      },
    )
  }, [theirs, unread, kernel, order.id, queryClient, key])

  const sent = (message: ChatMessage) => queryClient.setQueryData<ChatState>(key, (current) => withSent(current, message))

  return (
    <main
      // The whole viewport, so the composer sits at its bottom even with few messages.
      style={{ ...pageStyle, paddingBottom: 0, minHeight: "100dvh", boxSizing: "border-box", display: "flex", flexDirection: "column" }}
      data-testid="p2p-chat"
      data-order={order.id}
    >
      <header style={{ display: "flex", alignItems: "center", gap: 12, padding: "8px 16px 12px", borderBottom: "1px solid var(--wk-color-separator)" }}>
        <Avatar name={other.name} colorSeed={avatarColorIndex(other.userId)} size={40} />
        <div style={{ flex: 1, minWidth: 0 }}>
          <h1
            style={{ margin: 0, fontSize: "var(--wk-font-size-title3, 20px)", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}
            data-testid="p2p-chat-title"
          >
            {other.name}
          </h1>
          <span style={{ color: "var(--wk-color-hint)", fontSize: "var(--wk-font-size-footnote, 13px)" }}>
            {t(order.side === "buyer" ? "chat.header.seller" : "chat.header.buyer", { id: order.id })}
          </span>
        </div>
        <Button look="plain" size="s" onClick={() => void go(orderRoute, { params: { id: String(order.id) } })} data-testid="p2p-chat-to-order">
          {t("chat.toOrder")}
        </Button>
      </header>
      <div style={{ flex: 1, display: "flex", flexDirection: "column", gap: 8, padding: "12px 12px 16px" }}>
        {state === undefined ? (
          query.status === "error" ? (
            <LoadError title={t("chat.loadError")} retry={() => void query.refetch()} />
          ) : (
            <SkeletonList rows={4} label={t("chat.loading")} />
          )
        ) : messages.length === 0 ? (
          <div data-testid="p2p-chat-empty">
            <Placeholder title={t("chat.empty.title")} description={t("chat.empty.text")} />
          </div>
        ) : (
          <div
            role="log"
            aria-live="polite"
            aria-label={t("chat.messagesLabel")}
            data-testid="p2p-chat-log"
            style={{ display: "flex", flexDirection: "column", gap: 8, position: "relative" }}
          >
            {messages.map((message) => (
              <Bubble key={message.id} message={message} orderId={order.id} theirName={other.name} now={now} />
            ))}
          </div>
        )}
        {query.isRefetchError && (
          <p role="alert" style={{ margin: 0, textAlign: "center", color: "var(--wk-color-hint)", fontSize: 13 }}>
            {t("chat.offline")}
          </p>
        )}
        <div ref={endRef} />
      </div>
      {state !== undefined &&
        (state.writable ? (
          <Composer orderId={order.id} onSent={sent} onClosed={() => void query.refetch()} />
        ) : (
          <div style={{ padding: "8px 16px 16px" }} data-testid="p2p-chat-closed">
            <Banner tone="info" title={t("chat.closed")} />
          </div>
        ))}
    </main>
  )
}

/**
 * /p2p/orders/$id/chat (issue 21): the order's chat between its two sides. Messages are polled every
 * 3 s while the screen is open; the other side's are marked read as they show. Texts up to 2,000
 * characters and photos (JPEG, PNG, WebP up to 5 MB, uploaded with progress). A closed order's chat
 * stays readable.
 */
export default function ChatScreen() {
  return <WithOrder rows={4}>{(order) => <Chat order={order} />}</WithOrder>
}
