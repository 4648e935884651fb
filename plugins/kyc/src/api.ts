/**
 * `@wallet/plugin-kyc/api`: the plugin's HTTP contract. Browser-safe (only `effect` and
 * `@wallet/kernel/api`). Both endpoints need `Authorization: Bearer <access token>`.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ApiId, authenticated, userText } from "@wallet/kernel/api"

export const Note = Schema.Struct({ id: Schema.Number, text: Schema.String })
export type Note = typeof Note.Type
export const Notes = Schema.Struct({ items: Schema.Array(Note) })
export type Notes = typeof Notes.Type
export const AddNote = Schema.Struct({ text: userText({ minLength: 1, maxLength: 200 }) })

export const KycGroup = authenticated(
  HttpApiGroup.make("kycNotes").add(
    HttpApiEndpoint.get("list", "/api/kyc/notes", { success: Notes }),
    HttpApiEndpoint.post("add", "/api/kyc/notes", { payload: AddNote, success: Note }),
  ),
)

export const KycApi = HttpApi.make(ApiId).add(KycGroup)
