/*
 * matching.h — maximum weight matching in a general (non-bipartite) graph.
 *
 * Edmonds' blossom algorithm in its primal-dual form, O(n^3) per solve on a
 * dense graph. Weights are exact wide unsigned integers of a fixed number of
 * 64-bit limbs (least significant limb first), chosen when the graph is made:
 * the Dutch pairing engine encodes its criteria as bit fields of one big
 * number, far wider than 64 bits. A weight of zero means "no edge"; such an
 * edge is never in the matching.
 *
 * Invariants: the graph is complete and undirected; weights must stay below
 * 2^(64*limbs - 3) so that sums of two duals cannot overflow.
 * Workload: a few hundred to a few thousand vertices, solved many times in a
 * row with a handful of changed edges between solves.
 */
#ifndef ARBITER_RULES_MATCHING_H
#define ARBITER_RULES_MATCHING_H

#include <stddef.h>
#include <stdint.h>

typedef struct MatchingGraph MatchingGraph;

/* A graph of n vertices (0..n-1) with all weights zero, each weight `limbs`
 * 64-bit words wide. Returns NULL when out of memory or n/limbs are <= 0. */
MatchingGraph *matching_graph_new(int n, int limbs);

/* Frees the graph; NULL is a no-op. */
void matching_graph_free(MatchingGraph *g);

/* Number of vertices, limbs per weight. */
int matching_graph_size(const MatchingGraph *g);
int matching_graph_limbs(const MatchingGraph *g);

/* Sets the weight of edge {u,v} (u != v) to the `limbs` words at w. */
void matching_graph_set(MatchingGraph *g, int u, int v, const uint64_t *w);

/* Sets the weight of edge {u,v} to a small value. */
void matching_graph_set_u64(MatchingGraph *g, int u, int v, uint64_t w);

/* The weight of edge {u,v} (read-only view of `limbs` words). */
const uint64_t *matching_graph_get(const MatchingGraph *g, int u, int v);

/* Computes a maximum weight matching (not necessarily of maximum
 * cardinality). mate[v] receives v's partner, or -1 when v is unmatched.
 * The graph keeps the optimal duals: the next solve starts from them and
 * only repairs around the edges changed since, which is what makes a series
 * of solves with a few changed edges each cheap. Returns 0, or -ENOMEM. */
int matching_graph_solve(MatchingGraph *g, int *mate);

/* The same on the subgraph induced by verts[0..n-1] (distinct vertices of
 * g): mate[i] is the position k in verts of the partner of verts[i], or -1.
 * Returns 0, or -ENOMEM. */
int matching_graph_solve_subset(MatchingGraph *g, const int *verts, int n, int *mate);

/* The same, with the answer by vertex: mate[verts[i]] receives the partner
 * vertex of verts[i], or verts[i] itself when unmatched; other entries of
 * mate are left alone. scratch holds n ints. Returns 0, or -ENOMEM. */
int matching_graph_solve_mates(MatchingGraph *g, const int *verts, int n, int *scratch, int *mate);

#endif
