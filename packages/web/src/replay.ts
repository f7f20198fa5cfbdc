/**
 * The replayer's frames: a finished hand's PHH (as the server sends it, with `??` for cards the player
 * may not see) stepped action by action. This is bookkeeping of what the file says — cards dealt, chips
 * bet — never a rule: the file already records every decision and the server decided the result.
 */
import {
  formatCard,
  formatScaled,
  parsePhh,
  phhToConfig,
  UNKNOWN_CARD_TEXT,
  type PhhCard,
} from '@felt/engine/browser';

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

const cardTexts = (cards: readonly PhhCard[]): string[] =>
  cards.map((card) => (card === null ? UNKNOWN_CARD_TEXT : formatCard(card)));

/** A frame saying why the history cannot be stepped through (the text history is still shown). */
const unreadable = (message: string): ReplayFrame[] => [
  { line: `This history cannot be replayed: ${message}`, board: [], players: [], pot: 0 },
];

/**
 * Every frame of the hand, the first one after the forced bets. The engine reads the file (amounts
 * scaled to integers, forced bets by position as PHH orders them); the frames show the file's units.
 */
export function replayFrames(phh: string): ReplayFrame[] {
  const parsed = parsePhh(phh);
  if (!parsed.ok) return unreadable(parsed.error.message);
  const hand = parsed.value;
  const read = phhToConfig(hand);
  if (!read.ok) return unreadable(read.error.message);
  const { config } = read.value;
  const names = hand.extra['players'];
  const unit = 10 ** hand.scale;
  let players: ReplayPlayer[] = hand.startingStacks.map((stack, index) => ({
    name: Array.isArray(names) && typeof names[index] === 'string' ? names[index] : `p${index + 1}`,
    cards: [],
    stack,
    bet: 0,
    folded: false,
  }));
  let pot = 0;
  let board: string[] = [];
  const frame = (line: string): ReplayFrame => ({
    line,
    board,
    players: players.map((p) => ({ ...p, stack: p.stack / unit, bet: p.bet / unit })),
    pot: pot / unit,
  });
  // Forced bets: antes to the pot, blinds in front of the players.
  players = players.map((player, index) => {
    const owed = typeof config.antes === 'number' ? config.antes : (config.antes?.[index] ?? 0);
    const ante = Math.min(player.stack, owed);
    const blind = Math.min(player.stack - ante, config.blinds?.[index] ?? 0);
    pot += ante;
    return { ...player, stack: player.stack - ante - blind, bet: blind };
  });
  const frames: ReplayFrame[] = [frame('Forced bets posted')];
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
  const money = (amount: number): string => formatScaled(amount, hand.scale);
  for (const action of hand.actions) {
    if (action.kind === 'none') continue;
    if (action.kind === 'deal-board' || action.kind === 'deal-hole') {
      if (betting) collect();
      const cards = cardTexts(action.cards);
      if (action.kind === 'deal-board') {
        board = [...board, ...cards];
        frames.push(frame(`Board: ${cards.join(' ')}`));
      } else {
        const index = action.player;
        players = players.map((p, i) => (i === index ? { ...p, cards: [...p.cards, ...cards] } : p));
        frames.push(frame(`${players[index]?.name ?? '?'} is dealt ${cards.join(' ')}`));
      }
      continue;
    }
    const index = action.player;
    const who = players[index];
    if (who === undefined) continue;
    const maxBet = Math.max(0, ...players.map((p) => p.bet));
    const change = (patch: Partial<ReplayPlayer>) => {
      players = players.map((p, i) => (i === index ? { ...p, ...patch } : p));
    };
    const put = (to: number): number => {
      const add = Math.max(0, Math.min(who.stack, to - who.bet));
      change({ stack: who.stack - add, bet: who.bet + add });
      return add;
    };
    let line: string;
    switch (action.kind) {
      case 'fold':
        change({ folded: true });
        line = `${who.name} folds`;
        break;
      case 'check-call': {
        betting = true;
        const add = put(maxBet);
        line = add === 0 ? `${who.name} checks` : `${who.name} calls ${money(add)}`;
        break;
      }
      case 'bring-in':
        betting = true;
        put(who.bet + (config.bringIn ?? 0));
        line = `${who.name} brings in`;
        break;
      case 'bet-raise':
        betting = true;
        put(action.amount);
        line = `${who.name} ${maxBet === 0 ? 'bets' : 'raises to'} ${money(action.amount)}`;
        break;
      case 'discard': {
        const thrown = cardTexts(action.cards);
        let cards = [...who.cards];
        for (const card of thrown) {
          const at = card === UNKNOWN_CARD_TEXT ? cards.lastIndexOf(card) : cards.indexOf(card);
          cards = at >= 0 ? [...cards.slice(0, at), ...cards.slice(at + 1)] : cards.slice(0, -1);
        }
        change({ cards });
        line = thrown.length === 0 ? `${who.name} stands pat` : `${who.name} discards ${thrown.length}`;
        break;
      }
      case 'show-muck': {
        const shown = cardTexts(action.cards);
        if (shown.length > 0) change({ cards: shown });
        line = shown.length === 0 ? `${who.name} mucks` : `${who.name} shows ${shown.join(' ')}`;
        break;
      }
    }
    frames.push(frame(line));
  }
  collect();
  frames.push(frame('End of the hand'));
  return frames;
}
