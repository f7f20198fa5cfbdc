import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { formatCard, RANK_CHARS, SUIT_CHARS } from '@felt/engine/browser';
import { cardName, readCard, suitColour } from '../src/cards';
import { Card, CardRow } from '../src/components/Card';

/** The 52 texts cards travel as: "2c" … "As". */
const ALL = Array.from(RANK_CHARS).flatMap((rank) => Array.from(SUIT_CHARS).map((suit) => rank + suit));

describe('cards', () => {
  it('reads every card text the wire carries into the engine numbering, and names it', () => {
    expect(ALL).toHaveLength(52);
    for (const text of ALL) expect(formatCard(readCard(text)!)).toBe(text);
    expect(readCard('As')).toBe(51);
    expect(cardName('Td')).toBe('Ten of diamonds');
    expect(readCard('??')).toBeNull();
    expect(cardName('??')).toBe('face-down card');
  });

  it('draws all 52 faces and the back as SVG with an accessible name', () => {
    for (const card of ALL) {
      const html = renderToStaticMarkup(createElement(Card, { card }));
      expect(html).toMatch(/^<svg/);
      expect(html).toContain(`aria-label="${cardName(card)}"`);
      expect(html).toContain(`data-card="${card}"`);
    }
    const back = renderToStaticMarkup(createElement(Card, { card: '??' }));
    expect(back).toContain('aria-label="face-down card"');
    expect(back).toContain('data-card="??"');
  });

  it('four-colour deck: four suits, four colours; two-colour: red and black', () => {
    const four = new Set([0, 1, 2, 3].map((suit) => suitColour(suit, true)));
    const two = new Set([0, 1, 2, 3].map((suit) => suitColour(suit, false)));
    expect(four.size).toBe(4);
    expect(two.size).toBe(2);
    const html = renderToStaticMarkup(createElement(Card, { card: 'Qd', fourColour: true }));
    expect(html).toContain(suitColour(1, true));
  });

  it('a stud down card seen by its owner is face up and marked "face down"', () => {
    const html = renderToStaticMarkup(
      createElement(CardRow, {
        cards: ['7h', '??', 'Kc'],
        up: [false, false, true],
        label: 'cards',
      }),
    );
    expect(html).toContain('Seven of hearts (face down)');
    expect(html).toContain('face-down card');
    expect(html).toContain('aria-label="King of clubs"');
  });
});
