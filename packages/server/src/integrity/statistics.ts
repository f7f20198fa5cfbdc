/**
 * The tail probabilities the game-security reports test against (./reports.ts): the normal tail of a
 * z-score and the Poisson tail of a count. Each report flags only below `alpha / tests` (Bonferroni),
 * so that over every pair it tests the chance of flagging any honest one stays under `alpha`.
 */

/** P(Z ≥ z) for a standard normal Z (the complementary error function of Numerical Recipes, |ε| < 1.2e-7 relative). */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** ln(k!) exactly summed for small k, Stirling's series beyond. */
function logFactorial(k: number): number {
  if (k < 30) {
    let sum = 0;
    for (let i = 2; i <= k; i++) sum += Math.log(i);
    return sum;
  }
  return k * Math.log(k) - k + 0.5 * Math.log(2 * Math.PI * k) + 1 / (12 * k) - 1 / (360 * k ** 3);
}

/** P(X ≥ k) for X ~ Poisson(mean). */
export function poissonUpperTail(k: number, mean: number): number {
  if (k <= 0) return 1;
  if (mean <= 0) return 0;
  const term = (j: number): number => Math.exp(-mean + j * Math.log(mean) - logFactorial(j));
  if (k <= mean) {
    let below = 0;
    for (let j = 0; j < k; j++) below += term(j);
    return Math.max(0, 1 - below);
  }
  let sum = 0;
  for (let j = k; j < k + 10_000; j++) {
    const t = term(j);
    sum += t;
    if (t < sum * 1e-12) break;
  }
  return Math.min(1, sum);
}
