/** Errors for bad input are values with an enumerated code, never exceptions. */
export const ErrorCode = {
  BAD_CARD: 'BAD_CARD',
  DUPLICATE_CARD: 'DUPLICATE_CARD',
  BAD_CARD_COUNT: 'BAD_CARD_COUNT',
  CARD_NOT_IN_DECK: 'CARD_NOT_IN_DECK',
  UNKNOWN_GAME: 'UNKNOWN_GAME',
  BAD_REQUEST: 'BAD_REQUEST',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface FeltError<C extends string = ErrorCode> {
  readonly code: C;
  readonly message: string;
}

export type Result<T, C extends string = ErrorCode> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: FeltError<C> };

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });

export const fail = <C extends string>(
  code: C,
  message: string,
): { readonly ok: false; readonly error: FeltError<C> } => ({
  ok: false,
  error: { code, message },
});
