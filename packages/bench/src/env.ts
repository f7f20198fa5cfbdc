/** A number from the environment (`fallback` when unset), refused outside [min, max]. */
export function envNumber(name: string, fallback: number, min: number, max = Infinity): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!(value >= min && value <= max))
    throw new Error(`${name} must be a number ${max === Infinity ? `≥ ${min}` : `from ${min} to ${max}`}`);
  return value;
}
