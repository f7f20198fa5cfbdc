import { formatCard } from '@felt/engine';
import type { PeerName } from '../registry.js';
import { peerContender, type Contender } from './contender.js';

/**
 * Each peer, loaded on demand (poker-evaluator reads a 130 MB table when imported) and called through
 * its fastest public API, found in its README and code: integer card codes where it takes them.
 */
export const PEERS: Readonly<Record<PeerName, () => Promise<Contender>>> = {
  '@pokertools/evaluator': async () => {
    // evaluate(codes): 5 to 7 codes, lower is better.
    const { evaluate, getCardCode } = await import('@pokertools/evaluator');
    return peerContender({
      card: (card) => getCardCode(formatCard(card)),
      evaluate,
      compare: (a, b) => b - a,
    });
  },
  phe: async () => {
    // evaluateCardCodes(codes): 5 to 7 codes, lower is better.
    const { default: phe } = await import('phe');
    return peerContender({
      card: (card) => {
        const text = formatCard(card);
        return phe.cardCode(text.charAt(0), text.charAt(1));
      },
      evaluate: phe.evaluateCardCodes,
      compare: (a, b) => b - a,
    });
  },
  'poker-evaluator': async () => {
    // evalHand(numbers): 5 to 7 numbers of its DECK table; `value` is higher for the better hand. (Its
    // undocumented export evalCard walks the lookup table one card at a time; users call evalHand.)
    const [{ evalHand }, { DECK }] = await Promise.all([
      import('poker-evaluator'),
      import('poker-evaluator/lib/constants/deck.const.js'),
    ]);
    return peerContender({
      card: (card) => DECK[formatCard(card).toLowerCase()]!,
      evaluate: (cards) => evalHand(cards).value,
      compare: (a, b) => a - b,
    });
  },
  pokersolver: async () => {
    // Hand.solve(strings, game) with the game built once; Hand.winners for the showdown.
    const {
      default: { Hand, Game },
    } = await import('pokersolver');
    const game = new Game('standard');
    return peerContender({
      card: formatCard,
      evaluate: (cards) => Hand.solve(cards, game),
      compare: (a, b) => b.compare(a),
      winners: (hands) => Hand.winners(hands).map((hand) => hands.indexOf(hand)),
    });
  },
};
