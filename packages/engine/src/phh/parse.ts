import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { fail, ok, type Result } from '../result.js';
import { parsePhhAction, formatPhhAction, type RawPhhAction } from './actions.js';
import { decimalsOf, formatScaled, toScaled } from './decimal.js';
import {
  PhhErrorCode,
  RESULT_FIELDS,
  type PhhAction,
  type PhhExtraValue,
  type PhhHand,
  type PhhResultField,
} from './types.js';

type PhhResult<T> = Result<T, PhhErrorCode>;
type Table = Record<string, unknown>;

/** The lists of amounts that describe the game: with the singles and the actions' amounts, they set its unit. */
const GAME_LISTS = ['antes', 'blinds_or_straddles', 'spread_limits', 'starting_stacks'] as const;
const MONEY_LISTS = [...GAME_LISTS, ...RESULT_FIELDS] as const;
const MONEY_SINGLES = ['bring_in', 'small_bet', 'big_bet', 'min_bet'] as const;
const KNOWN_FIELDS: readonly string[] = [
  ...MONEY_LISTS,
  ...MONEY_SINGLES,
  'variant',
  'actions',
  'ante_trimming_status',
];

const isResultField = (field: string): field is PhhResultField =>
  (RESULT_FIELDS as readonly string[]).includes(field);

const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const bad = (
  message: string,
): { readonly ok: false; readonly error: { code: PhhErrorCode; message: string } } =>
  fail(PhhErrorCode.BAD_PHH, message);

function readToml(text: string): PhhResult<Table> {
  try {
    return ok(parseToml(text) as Table);
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return bad(`not valid TOML: ${message}`);
  }
}

/** Reads a `.phh` file: one hand. */
export function parsePhh(text: string): PhhResult<PhhHand> {
  const table = readToml(text);
  return table.ok ? handFromTable(table.value) : table;
}

/**
 * Reads a `.phhs` file: hands as tables `[1]`, `[2]` … in order. A file holding a single hand at its
 * top level is read as one hand. Each hand is checked on its own, so one bad hand spoils only itself.
 */
export function parsePhhs(text: string): PhhResult<PhhResult<PhhHand>[]> {
  const table = readToml(text);
  if (!table.ok) return table;
  if ('variant' in table.value) return ok([handFromTable(table.value)]);
  const hands: PhhResult<PhhHand>[] = [];
  for (const [key, value] of Object.entries(table.value)) {
    hands.push(isTable(value) ? handFromTable(value) : bad(`[${key}] is not a table of a hand`));
  }
  return ok(hands);
}

/** Validates one hand's table into a {@link PhhHand}. */
export function handFromTable(table: Table): PhhResult<PhhHand> {
  const { variant, actions, ante_trimming_status: anteTrimming } = table;
  if (typeof variant !== 'string') return bad('"variant" must be a string');
  if (anteTrimming !== undefined && typeof anteTrimming !== 'boolean') {
    return bad('"ante_trimming_status" must be true or false');
  }
  if (!Array.isArray(actions) || !actions.every((item) => typeof item === 'string')) {
    return bad('"actions" must be an array of strings');
  }
  const rawActions: RawPhhAction[] = [];
  for (const [index, text] of actions.entries()) {
    const action = parsePhhAction(text);
    if (!action.ok) return bad(`actions[${index}]: ${action.error.message}`);
    rawActions.push(action.value);
  }
  // Every amount that describes the game, to find the scale that makes them all whole. The answer
  // fields (finishing stacks, winnings) are left out: an answer says what the game gave, never its unit.
  const amounts: number[] = [];
  for (const field of MONEY_SINGLES) {
    const value = table[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      return bad(`"${field}" must be a non-negative number`);
    }
    amounts.push(value);
  }
  for (const field of MONEY_LISTS) {
    const value = table[field];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'number' && Number.isFinite(item))) {
      return bad(`"${field}" must be an array of finite numbers`);
    }
    if (!isResultField(field)) amounts.push(...(value as number[]));
  }
  let scale = Math.max(0, ...amounts.map(decimalsOf));
  for (const raw of rawActions) if (raw.amount) scale = Math.max(scale, raw.amount.decimals);
  if (scale > 12) return bad(`amounts with ${scale} decimals are not supported`);

  const scaled = (value: number, what: string): PhhResult<number> => {
    const result = toScaled(value, scale);
    return result === null ? bad(`${what} ${value} is too large to count exactly`) : ok(result);
  };
  const lists: Partial<Record<(typeof MONEY_LISTS)[number], number[]>> = {};
  const offUnit: Partial<Record<PhhResultField, number[]>> = {};
  for (const field of MONEY_LISTS) {
    const value = table[field] as number[] | undefined;
    if (value === undefined) continue;
    if (isResultField(field) && value.some((item) => decimalsOf(item) > scale)) {
      // Kept as written, so that a replay reports it rather than plays the game in its decimals.
      offUnit[field] = [...value];
      continue;
    }
    const list: number[] = [];
    for (const item of value) {
      const result = scaled(item, `"${field}"`);
      if (!result.ok) return result;
      list.push(result.value);
    }
    lists[field] = list;
  }
  const singles: Partial<Record<(typeof MONEY_SINGLES)[number], number>> = {};
  for (const field of MONEY_SINGLES) {
    const value = table[field] as number | undefined;
    if (value === undefined) continue;
    const result = scaled(value, `"${field}"`);
    if (!result.ok) return result;
    singles[field] = result.value;
  }
  const parsedActions: PhhAction[] = [];
  for (const raw of rawActions) {
    if (raw.amount === undefined || raw.action.kind !== 'bet-raise') {
      parsedActions.push(raw.action);
      continue;
    }
    const amount = scaled(raw.amount.value, 'amount');
    if (!amount.ok) return amount;
    parsedActions.push({ ...raw.action, amount: amount.value });
  }
  const startingStacks = lists.starting_stacks;
  if (startingStacks === undefined) return bad('"starting_stacks" is missing');
  const players = startingStacks.length;
  if (players < 2) return bad('a hand needs at least two players');
  for (const field of ['antes', 'blinds_or_straddles', 'finishing_stacks', 'winnings'] as const) {
    const list = lists[field] ?? (isResultField(field) ? offUnit[field] : undefined);
    if (list !== undefined && list.length !== players) {
      return bad(`"${field}" has ${list.length} entries for ${players} players`);
    }
  }
  if (lists.starting_stacks?.some((stack) => stack < 0) || lists.antes?.some((ante) => ante < 0)) {
    return bad('stacks and antes must not be negative');
  }
  for (const [index, action] of parsedActions.entries()) {
    if ('player' in action && action.player >= players) {
      return bad(`actions[${index}] names p${action.player + 1} of ${players} players`);
    }
  }
  const extra: Record<string, PhhExtraValue> = {};
  for (const [key, value] of Object.entries(table)) {
    if (!KNOWN_FIELDS.includes(key)) extra[key] = value as PhhExtraValue;
  }
  return ok({
    variant,
    scale,
    antes: lists.antes ?? startingStacks.map(() => 0),
    ...(lists.blinds_or_straddles === undefined ? {} : { blindsOrStraddles: lists.blinds_or_straddles }),
    ...(singles.bring_in === undefined ? {} : { bringIn: singles.bring_in }),
    ...(singles.small_bet === undefined ? {} : { smallBet: singles.small_bet }),
    ...(singles.big_bet === undefined ? {} : { bigBet: singles.big_bet }),
    ...(singles.min_bet === undefined ? {} : { minBet: singles.min_bet }),
    ...(lists.spread_limits === undefined ? {} : { spreadLimits: lists.spread_limits }),
    ...(anteTrimming === undefined ? {} : { anteTrimmingStatus: anteTrimming }),
    startingStacks,
    actions: parsedActions,
    ...(lists.finishing_stacks === undefined ? {} : { finishingStacks: lists.finishing_stacks }),
    ...(lists.winnings === undefined ? {} : { winnings: lists.winnings }),
    ...(Object.keys(offUnit).length === 0 ? {} : { resultsOffUnit: offUnit }),
    extra,
  });
}

/** The hand as a plain TOML table, amounts back in the file's units. */
export function handToTable(hand: PhhHand): Record<string, unknown> {
  const money = (value: number): number => Number(formatScaled(value, hand.scale));
  const table: Record<string, unknown> = { variant: hand.variant };
  if (hand.anteTrimmingStatus !== undefined) table.ante_trimming_status = hand.anteTrimmingStatus;
  table.antes = hand.antes.map(money);
  if (hand.blindsOrStraddles) table.blinds_or_straddles = hand.blindsOrStraddles.map(money);
  if (hand.bringIn !== undefined) table.bring_in = money(hand.bringIn);
  if (hand.smallBet !== undefined) table.small_bet = money(hand.smallBet);
  if (hand.bigBet !== undefined) table.big_bet = money(hand.bigBet);
  if (hand.minBet !== undefined) table.min_bet = money(hand.minBet);
  if (hand.spreadLimits) table.spread_limits = hand.spreadLimits.map(money);
  table.starting_stacks = hand.startingStacks.map(money);
  table.actions = hand.actions.map((action) => formatPhhAction(action, hand.scale));
  for (const [key, value] of Object.entries(hand.extra)) table[key] = value;
  const results = { finishing_stacks: hand.finishingStacks, winnings: hand.winnings };
  for (const field of RESULT_FIELDS) {
    const written = results[field]?.map(money) ?? hand.resultsOffUnit?.[field];
    if (written) table[field] = [...written];
  }
  return table;
}

/** Writes one hand as a `.phh` file. */
export function writePhh(hand: PhhHand): string {
  return stringifyToml(handToTable(hand));
}

/** Writes hands as a `.phhs` file: tables `[1]`, `[2]` …. */
export function writePhhs(hands: readonly PhhHand[]): string {
  const file: Record<string, unknown> = {};
  hands.forEach((hand, index) => {
    file[String(index + 1)] = handToTable(hand);
  });
  return stringifyToml(file);
}
