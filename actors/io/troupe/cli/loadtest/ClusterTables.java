package io.troupe.cli.loadtest;

import io.troupe.actors.api.QueryOptions;
import io.troupe.actors.cluster.TroupeCluster;
import io.troupe.operators.TroupeException;
import io.troupe.operators.exec.QueryFailedException;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code loadtest --cluster} checks before any load: the cluster has every table its queries read,
 * with the columns and types they use. The tables are the nodes' own (loaded at start from
 * {@code cluster start --tables DIR} or {@code --generate}); a client cannot list them, so each table a
 * query reads is asked for once with {@code scan NAME | limit 0} (the answer's columns are the table's,
 * and a node without it names the tables it has), and every query is then validated against those
 * columns, as a node would plan it. Stateless.
 */
final class ClusterTables {

    private ClusterTables() {
    }

    /**
     * The columns of every table {@code queries} read, in the order first read.
     *
     * @throws IllegalArgumentException one line naming the table, the first query that reads it and why
     *                                  the cluster cannot give it (the node's error), or the query that
     *                                  does not fit the tables and why
     */
    static Map<String, Schema> check(TroupeCluster cluster, List<LoadQuery> queries, QueryOptions options)
            throws InterruptedException {
        Map<String, Schema> schemas = new LinkedHashMap<>();
        Catalog catalog = new Catalog();
        for (LoadQuery q : queries) {
            for (String name : q.plan().tablesRead()) {
                String key = name.toLowerCase(Locale.ROOT);
                if (schemas.containsKey(key)) {
                    continue;
                }
                Schema schema;
                try {
                    schema = cluster.query(Plan.scan(name).limit(0), options).schema();
                } catch (QueryFailedException e) {
                    throw new IllegalArgumentException("the cluster cannot give table " + name + ", which "
                            + q.origin() + " reads: " + e.getMessage());
                }
                schemas.put(key, schema);
                catalog.register(new Table(name, schema, List.of()));
            }
            try {
                q.plan().validate(catalog);
            } catch (TroupeException e) {
                throw new IllegalArgumentException(q.origin() + " does not fit the cluster's tables ("
                        + describe(schemas) + "): " + e.getMessage());
            }
        }
        return schemas;
    }

    /** The tables and their columns, as one line: {@code t (i INT32), u (a INT64 NOT NULL)}. */
    static String describe(Map<String, Schema> schemas) {
        List<String> parts = new ArrayList<>();
        schemas.forEach((name, schema) -> parts.add(name + " (" + schema.describe() + ")"));
        return String.join(", ", parts);
    }
}
