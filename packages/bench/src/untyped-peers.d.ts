// Declarations for the peers that ship no types: just what the bench calls.

declare module 'phe' {
  const phe: {
    /** Strength of 5 to 7 card codes; lower is better. */
    readonly evaluateCardCodes: (codes: number[]) => number;
    /** The code of a card from its rank and suit characters ('A', 's'). */
    readonly cardCode: (rank: string, suit: string) => number;
    /** Strength of 5 to 7 cards as text ('As'); lower is better. */
    readonly evaluateCards: (cards: string[]) => number;
  };
  export = phe;
}

declare module 'pokersolver' {
  interface SolvedHand {
    /** Negative when this hand beats the other, positive when it loses, 0 on a tie. */
    compare(other: SolvedHand): number;
  }
  interface Game {
    readonly descr: string;
  }
  const pokersolver: {
    readonly Hand: {
      solve(cards: string[], game: Game): SolvedHand;
      winners(hands: SolvedHand[]): SolvedHand[];
    };
    readonly Game: new (descr: string) => Game;
  };
  export = pokersolver;
}
