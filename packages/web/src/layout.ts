/**
 * Where the seats go around the oval. Seat positions are percentages of the table box so the same layout
 * serves a phone and a desktop. The viewer's own seat is turned to the bottom centre, as in every room.
 */
export interface SeatSpot {
  /** Centre of the seat box, % of the table width. */
  readonly x: number;
  /** Centre of the seat box, % of the table height. */
  readonly y: number;
  /** Where the seat's bet sits, toward the middle of the table. */
  readonly betX: number;
  readonly betY: number;
}

/**
 * Spots for `count` seats (2 … 10). Seat `anchor` (the viewer's, or 0) is put at the bottom; the others
 * follow clockwise, as the deal goes.
 */
export function seatSpots(count: number, anchor = 0): SeatSpot[] {
  const n = Math.max(2, Math.min(10, Math.floor(count)));
  const spots: SeatSpot[] = [];
  for (let seat = 0; seat < n; seat++) {
    const k = (((seat - anchor) % n) + n) % n;
    // Angle 90° is the bottom (y grows downward); clockwise on screen = increasing angle.
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    spots.push({
      x: round(50 + 44 * cos),
      y: round(50 + 42 * sin),
      betX: round(50 + 27 * cos),
      betY: round(50 + 24 * sin),
    });
  }
  return spots;
}

const round = (value: number): number => Math.round(value * 10) / 10;
