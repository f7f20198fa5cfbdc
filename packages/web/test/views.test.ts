import { describe, expect, it } from 'vitest';
import { asTableView } from '../src/net/views';
import { holdemView } from './fixtures';

describe('the socket is the boundary: a malformed table view is dropped, not drawn', () => {
  it('a view with no blind request, or a well-formed one, is taken', () => {
    const view = holdemView();
    expect(asTableView(view)).toBe(view);
    const asking = { ...view, hand: null, blindRequest: { seat: 1, blind: 2, dead: 0, deadline: 5 } };
    expect(asTableView(asking)).toBe(asking);
  });

  it('a blind request that is missing or lacks a number is refused', () => {
    const without: Record<string, unknown> = { ...holdemView() };
    delete without['blindRequest'];
    expect(asTableView(without)).toBeNull();
    for (const blindRequest of [
      { seat: 1, blind: 2, dead: 0 },
      { seat: '1', blind: 2, dead: 0, deadline: 5 },
      7,
    ])
      expect(asTableView({ ...holdemView(), blindRequest })).toBeNull();
  });
});
