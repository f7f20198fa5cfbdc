/**
 * A small schema library for untrusted JSON: each schema parses `unknown` into typed plain data or
 * returns the first problem found (a path and a reason). No exceptions, no Node-only imports, no
 * prototype tricks: objects are rebuilt from the declared keys only (unknown keys are dropped, so a
 * handler never sees a field it did not declare; `__proto__` and friends are never copied).
 *
 * The API follows zod's names (`object`, `string`, `int`, `literal`, `enum`, `array`, `union` by a
 * discriminator, `optional`, `Infer`), so the schemas read the same and could move to zod unchanged in
 * shape. Why our own: the protocol package must run unchanged in the browser and the server, with no
 * dependency to keep in step, and the handful of shapes a poker protocol needs fits in this file.
 */

/** Where a value failed and why. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

export type ParseResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issue: SchemaIssue };

export interface Schema<T> {
  /** Parses untrusted input; never throws. */
  parse(input: unknown): ParseResult<T>;
  /** Internal: parse at a path. */
  readonly check: (input: unknown, path: string) => ParseResult<T>;
  /** True for `optional(...)`: the key may be absent from an object. */
  readonly isOptional: boolean;
  /** Literal values of this schema when it is a literal (used by `union` for dispatch). */
  readonly literals: readonly (string | number | boolean)[] | null;
}

/** The TypeScript type a schema parses into. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

const okv = <T>(value: T): ParseResult<T> => ({ ok: true, value });
const bad = <T>(path: string, message: string): ParseResult<T> => ({
  ok: false,
  issue: { path: path === '' ? '(root)' : path, message },
});

function make<T>(
  check: (input: unknown, path: string) => ParseResult<T>,
  options: { isOptional?: boolean; literals?: readonly (string | number | boolean)[] } = {},
): Schema<T> {
  return {
    check,
    parse: (input) => check(input, ''),
    isOptional: options.isOptional ?? false,
    literals: options.literals ?? null,
  };
}

export interface StringOptions {
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: RegExp;
}

/** A string; `max` defaults to 1,000 characters (nothing unbounded comes in). */
export function string(options: StringOptions = {}): Schema<string> {
  const min = options.min ?? 0;
  const max = options.max ?? 1000;
  return make((input, path) => {
    if (typeof input !== 'string') return bad(path, 'expected a string');
    if (input.length < min) return bad(path, `at least ${min} characters`);
    if (input.length > max) return bad(path, `at most ${max} characters`);
    if (options.pattern !== undefined && !options.pattern.test(input)) return bad(path, 'bad format');
    return okv(input);
  });
}

export interface IntOptions {
  readonly min?: number;
  readonly max?: number;
}

/** A safe integer within [min, max] (defaults: 0 … Number.MAX_SAFE_INTEGER). */
export function int(options: IntOptions = {}): Schema<number> {
  const min = options.min ?? 0;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  return make((input, path) => {
    if (typeof input !== 'number' || !Number.isSafeInteger(input)) return bad(path, 'expected an integer');
    if (input < min) return bad(path, `at least ${min}`);
    if (input > max) return bad(path, `at most ${max}`);
    return okv(input);
  });
}

/** A finite number (not necessarily an integer): only for statistics sent by the server. */
export function number(): Schema<number> {
  return make((input, path) =>
    typeof input === 'number' && Number.isFinite(input) ? okv(input) : bad(path, 'expected a number'),
  );
}

export function boolean(): Schema<boolean> {
  return make((input, path) =>
    typeof input === 'boolean' ? okv(input) : bad(path, 'expected true or false'),
  );
}

export function literal<const T extends string | number | boolean>(value: T): Schema<T> {
  return make(
    (input, path) => (input === value ? okv(value) : bad(path, `expected ${JSON.stringify(value)}`)),
    { literals: [value] },
  );
}

/** One of a list of strings. */
export function enumOf<const T extends string>(values: readonly T[]): Schema<T> {
  const set = new Set<string>(values);
  return make(
    (input, path) =>
      typeof input === 'string' && set.has(input)
        ? okv(input as T)
        : bad(path, `expected one of ${values.join(', ')}`),
    { literals: values },
  );
}

export interface ArrayOptions {
  readonly min?: number;
  readonly max?: number;
}

/** An array; `max` defaults to 100 items. */
export function array<T>(item: Schema<T>, options: ArrayOptions = {}): Schema<T[]> {
  const min = options.min ?? 0;
  const max = options.max ?? 100;
  return make((input, path) => {
    if (!Array.isArray(input)) return bad(path, 'expected an array');
    if (input.length < min) return bad(path, `at least ${min} items`);
    if (input.length > max) return bad(path, `at most ${max} items`);
    const out: T[] = [];
    for (let i = 0; i < input.length; i++) {
      const parsed = item.check(input[i], `${path}[${i}]`);
      if (!parsed.ok) return parsed;
      out.push(parsed.value);
    }
    return okv(out);
  });
}

export interface OptionalSchema<T> extends Schema<T | undefined> {
  readonly isOptional: true;
}

/** May be absent (as an object property) or `undefined`. */
export function optional<T>(schema: Schema<T>): OptionalSchema<T> {
  return make<T | undefined>(
    (input, path) => (input === undefined ? okv(undefined) : schema.check(input, path)),
    {
      isOptional: true,
    },
  ) as OptionalSchema<T>;
}

export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  return make((input, path) => (input === null ? okv(null) : schema.check(input, path)));
}

/** Any JSON value, passed through unchecked (server → client payloads whose shape another module owns). */
export function unknownValue(): Schema<unknown> {
  return make((input) => okv(input));
}

export type Shape = Readonly<Record<string, Schema<unknown>>>;

type OptionalKeyOf<S extends Shape> = {
  [K in keyof S]: S[K] extends { isOptional: true } ? K : never;
}[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The object type of a shape: optional schemas give optional keys (without `| undefined`). */
export type ObjectOf<S extends Shape> = Simplify<
  { readonly [K in Exclude<keyof S, OptionalKeyOf<S>>]: Infer<S[K]> } & {
    readonly [K in OptionalKeyOf<S>]?: Exclude<Infer<S[K]>, undefined>;
  }
>;

export interface ObjectSchema<S extends Shape> extends Schema<ObjectOf<S>> {
  readonly shape: S;
}

function isPlainObject(input: unknown): input is Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
  const proto = Object.getPrototypeOf(input) as unknown;
  return proto === Object.prototype || proto === null;
}

/** An object with exactly these keys (others are dropped; a missing required key fails). */
export function object<const S extends Shape>(shape: S): ObjectSchema<S> {
  const keys = Object.keys(shape);
  const schema = make<ObjectOf<S>>((input, path) => {
    if (!isPlainObject(input)) return bad(path, 'expected an object');
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const field = shape[key]!;
      const has = Object.prototype.hasOwnProperty.call(input, key);
      const value = has ? input[key] : undefined;
      if (!has && !field.isOptional) return bad(path === '' ? key : `${path}.${key}`, 'required');
      const parsed = field.check(value, path === '' ? key : `${path}.${key}`);
      if (!parsed.ok) return parsed;
      if (parsed.value !== undefined) out[key] = parsed.value;
    }
    return okv(out as ObjectOf<S>);
  });
  return { ...schema, shape };
}

/**
 * One of several object schemas told apart by the literal value of `key` (zod's
 * `discriminatedUnion`). An unknown discriminator is reported on `key`.
 */
export function union<const M extends readonly ObjectSchema<Shape>[]>(
  key: string,
  members: M,
): Schema<Infer<M[number]>> {
  const byValue = new Map<unknown, ObjectSchema<Shape>>();
  for (const member of members) {
    const tag = member.shape[key];
    if (tag?.literals == null) throw new Error(`union member without a literal ${key}`);
    for (const value of tag.literals) byValue.set(value, member);
  }
  return make((input, path) => {
    if (!isPlainObject(input)) return bad(path, 'expected an object');
    const member = Object.prototype.hasOwnProperty.call(input, key) ? byValue.get(input[key]) : undefined;
    if (member === undefined) return bad(path === '' ? key : `${path}.${key}`, 'unknown value');
    return member.check(input, path) as ParseResult<Infer<M[number]>>;
  });
}
