import { formatCard, parseMaybeCard } from '../cards.js';
import { fail, ok, type Result } from '../result.js';
import { formatScaled, parseDecimalText } from './decimal.js';
import { PhhErrorCode, type PhhAction, type PhhCard } from './types.js';

/** An action read from text, its amount (if any) still a decimal of unknown scale. */
export interface RawPhhAction {
  readonly action: PhhAction;
  /** For `cbr`: the amount as written, to be scaled once the file's scale is known. */
  readonly amount?: { readonly value: number; readonly decimals: number };
}

export function formatPhhCards(cards: readonly PhhCard[]): string {
  return cards.map((card) => (card === null ? '??' : formatCard(card))).join('');
}

export function parsePhhCards(text: string): Result<PhhCard[], PhhErrorCode> {
  if (text.length % 2 !== 0)
    return fail(PhhErrorCode.BAD_ACTION, `not a list of cards: ${JSON.stringify(text)}`);
  const cards: PhhCard[] = [];
  for (let i = 0; i < text.length; i += 2) {
    const card = parseMaybeCard(text.slice(i, i + 2));
    if (!card.ok) return fail(PhhErrorCode.BAD_ACTION, card.error.message);
    cards.push(card.value);
  }
  return ok(cards);
}

function parsePlayer(text: string | undefined): number | null {
  const match = text === undefined ? null : /^p([1-9]\d*)$/.exec(text);
  return match ? Number(match[1]) - 1 : null;
}

/** Reads one action notation: `d dh p1 AsKs`, `d db 4s3hQh`, `p2 cbr 300`, `p1 sm ????`, `# comment`. */
export function parsePhhAction(text: string): Result<RawPhhAction, PhhErrorCode> {
  const hash = text.indexOf('#');
  const body = (hash < 0 ? text : text.slice(0, hash)).trim();
  const comment = hash < 0 ? undefined : text.slice(hash + 1).trim();
  const withComment = (action: PhhAction): PhhAction =>
    comment === undefined ? action : { ...action, comment };
  const bad = (): Result<RawPhhAction, PhhErrorCode> =>
    fail(PhhErrorCode.BAD_ACTION, `not a PHH action: ${JSON.stringify(text)}`);
  const words = body === '' ? [] : body.split(/\s+/);
  const [actor, verb, ...rest] = words;
  if (actor === undefined) return ok({ action: withComment({ kind: 'none' }) });
  if (actor === 'd') {
    if (verb === 'db' && rest.length === 1) {
      const cards = parsePhhCards(rest[0]!);
      return cards.ok ? ok({ action: withComment({ kind: 'deal-board', cards: cards.value }) }) : cards;
    }
    const player = parsePlayer(rest[0]);
    if (verb === 'dh' && rest.length === 2 && player !== null) {
      const cards = parsePhhCards(rest[1]!);
      return cards.ok
        ? ok({ action: withComment({ kind: 'deal-hole', player, cards: cards.value }) })
        : cards;
    }
    return bad();
  }
  const player = parsePlayer(actor);
  if (player === null) return bad();
  switch (verb) {
    case 'f':
    case 'cc':
    case 'pb': {
      if (rest.length > 0) return bad();
      const kind = verb === 'f' ? 'fold' : verb === 'cc' ? 'check-call' : 'bring-in';
      return ok({ action: withComment({ kind, player }) });
    }
    case 'cbr': {
      const amount = rest.length === 1 ? parseDecimalText(rest[0]!) : null;
      if (amount === null) return bad();
      return ok({ action: withComment({ kind: 'bet-raise', player, amount: 0 }), amount });
    }
    case 'sd':
    case 'sm': {
      if (rest.length > 1) return bad();
      const cards = rest.length === 0 ? ok([]) : parsePhhCards(rest[0]!);
      if (!cards.ok) return cards;
      const kind = verb === 'sd' ? 'discard' : 'show-muck';
      return ok({ action: withComment({ kind, player, cards: cards.value }) });
    }
    default:
      return bad();
  }
}

/** Writes one action in PHH notation; amounts are scaled integers of the given scale. */
export function formatPhhAction(action: PhhAction, scale: number): string {
  const body = ((): string => {
    switch (action.kind) {
      case 'deal-hole':
        return `d dh p${action.player + 1} ${formatPhhCards(action.cards)}`;
      case 'deal-board':
        return `d db ${formatPhhCards(action.cards)}`;
      case 'bring-in':
        return `p${action.player + 1} pb`;
      case 'fold':
        return `p${action.player + 1} f`;
      case 'check-call':
        return `p${action.player + 1} cc`;
      case 'bet-raise':
        return `p${action.player + 1} cbr ${formatScaled(action.amount, scale)}`;
      case 'discard':
      case 'show-muck': {
        const verb = action.kind === 'discard' ? 'sd' : 'sm';
        const cards = formatPhhCards(action.cards);
        return `p${action.player + 1} ${verb}${cards === '' ? '' : ` ${cards}`}`;
      }
      case 'none':
        return '';
    }
  })();
  if (action.comment === undefined) return body;
  return body === '' ? `# ${action.comment}` : `${body} # ${action.comment}`;
}
