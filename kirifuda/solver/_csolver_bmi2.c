/* The solver's search (_csolver_search.h) compiled a second time, as a compilation unit of its
 * own, for x86-64 CPUs with BMI1, BMI2 and LZCNT, where pdep and pext are fast: a card's highest
 * and lowest bits in one instruction instead of several, the squeezed table key in place.
 * _csolver.c runs it where the CPU has them (kf_use_bmi2) and the portable build elsewhere;
 * both search node for node alike.  GCC only (elsewhere this unit is empty). */
#include "_csolver.h"

#ifdef FAST_CORE
#pragma GCC target("popcnt,bmi,bmi2,lzcnt")
#define CSOLVER_FAST_PASS 1
#include "_csolver_search.h"

int first_guess_bmi2(const S *s, int guess, int hi) { return first_guess(s, guess, hi); }
int search_exact_bmi2(S *s, int lo, int hi, int guess, int *out_hi) {
    return search_exact(s, lo, hi, guess, out_hi);
}
void search_choice_bmi2(S *s, int seat, Trick *t, const Move *m, int *lo, int *hi, int g) {
    search_choice(s, seat, t, m, lo, hi, g);
}
#else
typedef int kf_csolver_bmi2_unused;   /* ISO C: a compilation unit is never empty */
#endif
