/**
 * The engine's hand naming for a history (`@felt/engine/showdown-names`), kept out of
 * `@felt/engine/browser` because it brings the evaluators: the web client's replayer loads it with a
 * hand it opens, never with the page.
 */
export { shownHands, type NamedCards, type ShownHand } from './phh/shown-hands.js';
