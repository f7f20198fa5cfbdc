/**
 * The replayer's frames: a finished hand's PHH (as the server sends it, with `??` for cards the player
 * may not see) stepped action by action. This is bookkeeping of what the file says — cards dealt, chips
 * bet — never a rule: the file already records every decision and the server decided the result.
 */
export interface ReplayPlayer {
  readonly name: string;
  readonly cards: readonly string[];
  readonly stack: number;
  readonly bet: number;
  readonly folded: boolean;
}

export interface ReplayFrame {
  /** What happened at this step, in words. */
  readonly line: string;
  readonly board: readonly string[];
  readonly players: readonly ReplayPlayer[];
  /** Chips in the middle (not counting the bets in front of the players). */
  readonly pot: number;
}

/** The values of the PHH keys the replayer reads (a TOML subset: strings, integers, arrays of them). */
function readKeys(text: string): Map<string, unknown> {
  const keys = new Map<string, unknown>();
  for (const raw of text.split('\n')) {
    const match = /^\s*([a-z_]+)\s*=\s*(.+?)\s*$/.exec(raw);
    if (match === null) continue;
    const [, key = '', value = ''] = match;
    keys.set(key, parseValue(value));
  }
  return keys;
}

function parseValue(value: string): unknown {
  if (value.startsWith('[')) {
    const items: unknown[] = [];
    const pattern = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?[\d_.]+)|(true|false)/g;
    for (let match = pattern.exec(value); match !== null; match = pattern.exec(value)) {
      if (match[1] !== undefined) items.push(match[1]);
      else if (match[2] !== undefined) items.push(match[2]);
      else if (match[3] !== undefined) items.push(Number(match[3].replace(/_/g, '')));
      else items.push(match[4] === 'true');
    }
    return items;
  }
  if (/^'.*'$|^".*"$/.test(value)) return value.slice(1, -1);
  const number = Number(value.replace(/_/g, ''));
  return Number.isFinite(number) ? number : value;
}

const numbers = (value: unknown): number[] =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'number' ? item : 0)) : [];
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : String(item))) : [];

const splitCards = (text: string): string[] => text.match(/.{2}/g) ?? [];

/** Every frame of the hand, the first one before any action. */
export function replayFrames(phh: string): ReplayFrame[] {
  const keys = readKeys(phh);
  const stacks = numbers(keys.get('starting_stacks'));
  const names = strings(keys.get('players'));
  const antes = numbers(keys.get('antes'));
  const blinds = numbers(keys.get('blinds_or_straddles'));
  const actions = strings(keys.get('actions'));
  let players: ReplayPlayer[] = stacks.map((stack, index) => ({
    name: names[index] ?? `p${index + 1}`,
    cards: [],
    stack,
    bet: 0,
    folded: false,
  }));
  let pot = 0;
  let board: string[] = [];
  // Forced bets: antes to the pot, blinds in front of the players.
  players = players.map((player, index) => {
    const ante = Math.min(player.stack, antes[index] ?? 0);
    const blind = Math.min(player.stack - ante, blinds[index] ?? 0);
    pot += ante;
    return { ...player, stack: player.stack - ante - blind, bet: blind };
  });
  const frames: ReplayFrame[] = [{ line: 'Forced bets posted', board, players, pot }];
  let betting = false;
  const collect = () => {
    // An uncalled part of the largest bet goes back to its owner.
    const bets = players.map((player) => player.bet).sort((a, b) => b - a);
    const top = bets[0] ?? 0;
    const second = bets[1] ?? 0;
    if (top > second) {
      const owner = players.findIndex((player) => player.bet === top);
      players = players.map((player, i) =>
        i === owner ? { ...player, stack: player.stack + top - second, bet: second } : player,
      );
    }
    for (const player of players) pot += player.bet;
    players = players.map((player) => ({ ...player, bet: 0 }));
    betting = false;
  };
  for (const action of actions) {
    const parts = action.split('#')[0]?.trim().split(/\s+/) ?? [];
    let line = action;
    if (parts[0] === 'd') {
      if (betting) collect();
      if (parts[1] === 'db') {
        board = [...board, ...splitCards(parts[2] ?? '')];
        line = `Board: ${splitCards(parts[2] ?? '').join(' ')}`;
      } else if (parts[1] === 'dh') {
        const index = Number((parts[2] ?? 'p0').slice(1)) - 1;
        const cards = splitCards(parts[3] ?? '');
        players = players.map((p, i) => (i === index ? { ...p, cards: [...p.cards, ...cards] } : p));
        line = `${players[index]?.name ?? '?'} is dealt ${cards.join(' ')}`;
      }
    } else {
      const index = Number((parts[0] ?? 'p0').slice(1)) - 1;
      const who = players[index];
      if (who === undefined) continue;
      const maxBet = Math.max(0, ...players.map((p) => p.bet));
      const change = (patch: Partial<ReplayPlayer>) => {
        players = players.map((p, i) => (i === index ? { ...p, ...patch } : p));
      };
      switch (parts[1]) {
        case 'f':
          change({ folded: true });
          line = `${who.name} folds`;
          break;
        case 'cc': {
          const add = Math.min(who.stack, maxBet - who.bet);
          change({ stack: who.stack - add, bet: who.bet + add });
          line = add === 0 ? `${who.name} checks` : `${who.name} calls ${add}`;
          betting = true;
          break;
        }
        case 'cbr':
        case 'pb': {
          const to =
            parts[1] === 'pb' ? who.bet + Math.min(who.stack, Number(parts[2] ?? 0)) : Number(parts[2] ?? 0);
          const add = Math.max(0, Math.min(who.stack, to - who.bet));
          change({ stack: who.stack - add, bet: who.bet + add });
          line =
            parts[1] === 'pb'
              ? `${who.name} brings in`
              : `${who.name} ${maxBet === 0 ? 'bets' : 'raises to'} ${to}`;
          betting = true;
          break;
        }
        case 'sd': {
          const thrown = splitCards(parts[2] ?? '');
          let cards = [...who.cards];
          for (const card of thrown) {
            const at = card === '??' ? cards.lastIndexOf('??') : cards.indexOf(card);
            if (at >= 0) cards = [...cards.slice(0, at), ...cards.slice(at + 1)];
            else cards = cards.slice(0, -1);
          }
          change({ cards });
          line = thrown.length === 0 ? `${who.name} stands pat` : `${who.name} discards ${thrown.length}`;
          break;
        }
        case 'sm': {
          const shown = splitCards(parts[2] ?? '');
          if (shown.length > 0) change({ cards: shown });
          line = shown.length === 0 ? `${who.name} mucks` : `${who.name} shows ${shown.join(' ')}`;
          break;
        }
        default:
          break;
      }
    }
    frames.push({ line, board, players, pot });
  }
  collect();
  frames.push({ line: 'End of the hand', board, players, pot });
  return frames;
}
