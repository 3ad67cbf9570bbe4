/**
 * The part of jstat (a CommonJS bundle without type declarations) the bench
 * uses: the Student t distribution, for the change points' Welch test, and
 * the normal distribution, for the Mann–Whitney test's large-sample tail.
 */
declare module 'jstat' {
  const jStat: {
    readonly studentt: {
      /** P(T ≤ x) for T ~ Student t with `dof` degrees of freedom (dof need not be an integer). */
      cdf(x: number, dof: number): number;
    };
    readonly normal: {
      /** P(X ≤ x) for X ~ Normal(mean, sd). */
      cdf(x: number, mean: number, sd: number): number;
    };
  };
  export default jStat;
}
