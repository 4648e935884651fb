import { Effect, Option, Schema, SchemaTransformation } from "effect"

/**
 * Search params per the spec: "a value of the wrong type is dropped; enumerated params accept only
 * their list and an unknown value becomes the default". Never the router's error screen.
 */

/** An optional param whose wrong-typed value is dropped. */
export const optionalParam = <S extends Schema.Codec<unknown, unknown, never, never>>(schema: S) =>
  Schema.optionalKey(schema.pipe(Schema.catchDecoding(() => Effect.succeed(Option.none()))))

/** An enumerated param: an unknown or missing value becomes `fallback`. */
export const enumParam = <const L extends ReadonlyArray<string>>(values: L, fallback: L[number]) => {
  const lenient = Schema.Literals(values).pipe(Schema.catchDecoding(() => Effect.succeed(Option.some<L[number]>(fallback))))
  return Schema.withDecodingDefaultKey<typeof lenient, never>(Effect.succeed(fallback))(lenient)
}

/** An optional enumerated param without a default: an unknown value is dropped. */
export const optionalEnumParam = <const L extends ReadonlyArray<string>>(values: L) => optionalParam(Schema.Literals(values))

/** A string param; numbers that the router parsed from digits come back as their text. */
export const stringParam = optionalParam(
  Schema.Union([Schema.String, Schema.Finite.pipe(Schema.decodeTo(Schema.String, SchemaTransformation.transform({
    decode: (n: number) => String(n),
    encode: (s: string) => Number(s),
  })))]),
)

/** A numeric param: a number, or a string holding one. */
export const numberParam = optionalParam(Schema.Union([Schema.Finite, Schema.FiniteFromString]))

/** A boolean flag param given as `true` / 'true'. */
export const booleanParam = optionalParam(Schema.Union([Schema.Boolean, Schema.Literals(["true", "false"]).pipe(
  Schema.decodeTo(Schema.Boolean, SchemaTransformation.transform({
    decode: (s: "true" | "false") => s === "true",
    encode: (b: boolean): "true" | "false" => (b ? "true" : "false"),
  })),
)]))

/** Decodes raw search params with a lenient schema; never throws for bad values. */
export const decodeSearch = <S extends Schema.Top>(schema: S, raw: unknown): S["Type"] =>
  Schema.decodeUnknownSync(schema as unknown as Schema.ConstraintDecoder<S["Type"]>)(raw ?? {})

/** The Standard Schema form TanStack Router's `validateSearch` takes. */
export const toSearchValidator = <S extends Schema.Top>(schema: S) =>
  Schema.toStandardSchemaV1(schema as unknown as Schema.ConstraintDecoder<S["Type"]>)
