package io.troupe.actors.cluster;

import io.troupe.operators.exec.QueryResult;
import io.troupe.operators.profile.SpreadProfile;

/**
 * The answer of EXPLAIN ANALYZE over a cluster ({@link TroupeCluster#explainAnalyze}): the query's rows,
 * and its profile, every node's part merged.
 *
 * @param result  the query's rows: it ran for real
 * @param profile what each plan node, node, worker and exchange did
 */
public record AnalyzedQuery(QueryResult result, SpreadProfile profile) {

    /** The profile as EXPLAIN ANALYZE prints it ({@link SpreadProfile#render()}). */
    public String render() {
        return profile.render();
    }
}
