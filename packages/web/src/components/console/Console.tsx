import { useState } from 'react';
import { Hands } from './Hands';
import { Ledger } from './Ledger';
import { Live } from './Live';
import { Players } from './Players';
import { Security } from './Security';
import { Tables } from './Tables';
import type { TransactionsOf } from './Transactions';
import './console.css';

const SECTIONS = ['Live', 'Players', 'Hands', 'Ledger', 'Game security', 'Tables'] as const;
type Section = (typeof SECTIONS)[number];

/**
 * The staff's console (accounts with an operator or admin role): every request is a `staff-*` op,
 * which the room refuses to anyone else whatever this page shows, and logs.
 */
export default function Console() {
  const [section, setSection] = useState<Section>('Live');
  const [handId, setHandId] = useState<number | null>(null);
  const [transactionsOf, setTransactionsOf] = useState<TransactionsOf | null>(null);
  const showHand = (id: number) => {
    setHandId(id);
    setSection('Hands');
  };
  const showTransactions = (of: TransactionsOf) => {
    setTransactionsOf(of);
    setSection('Ledger');
  };
  return (
    <div className="console">
      <nav className="tabs" role="tablist" aria-label="Console">
        {SECTIONS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={section === name}
            onClick={() => {
              setSection(name);
            }}
          >
            {name}
          </button>
        ))}
      </nav>
      {section === 'Live' ? <Live /> : null}
      {section === 'Players' ? <Players onHand={showHand} onTransactions={showTransactions} /> : null}
      {section === 'Hands' ? <Hands handId={handId} onTransactions={showTransactions} /> : null}
      {section === 'Ledger' ? <Ledger of={transactionsOf} onHand={showHand} /> : null}
      {section === 'Game security' ? <Security onHand={showHand} /> : null}
      {section === 'Tables' ? <Tables /> : null}
    </div>
  );
}
