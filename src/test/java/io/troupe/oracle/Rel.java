package io.troupe.oracle;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.TypeId;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A generated relation in both languages: a Troupe {@link Plan} and a DuckDB query computing the
 * same rows. The SQL names its output columns k0, k1, ... in Troupe's column order, so columns
 * match by position and the SQL never has to be derived from the Plan. Immutable.
 *
 * @param sql        the whole query, with its ORDER BY (and LIMIT) when it has one
 * @param baseSql    the query without ORDER BY / LIMIT (null when unordered: then equal to sql)
 * @param orderBy    the ORDER BY items over baseSql's output (null when unordered)
 * @param totalOrder true when the order is fully determined (sorted on every output column)
 * @param maxRows    an upper bound of its row count, which keeps joins and sums in check
 */
record Rel(Plan plan, String sql, List<Col> cols, double maxRows, String baseSql, String orderBy, boolean totalOrder) {

    /**
     * One output column: Troupe's qualifier and name, its type (Troupe's, once validated) and
     * what the generator knows of its values (see {@link Term}).
     */
    record Col(String qualifier, String name, DataType type, boolean exactType, double bound, int dyadic,
               boolean fuzzy) {

        /** The reference that names this column in a Troupe expression. */
        String ref() {
            return qualifier == null ? name : qualifier + "." + name;
        }

        /** This column as a term of a query that reads the relation under SQL alias {@code alias}. */
        Term term(String alias, int index) {
            return new Term(Expr.col(ref()), alias + ".k" + index, type, exactType, bound, dyadic, fuzzy);
        }

        Col withQualifier(String newQualifier) {
            return new Col(newQualifier, name, type, exactType, bound, dyadic, fuzzy);
        }

        Col withType(DataType newType) {
            return new Col(qualifier, name, newType, true, bound, dyadic, fuzzy);
        }

        /**
         * This column where it stands for a group of equal values, a group key's or DISTINCT's: an INTERVAL is then
         * any of the group's (intervals are equal by length: '1 month' and '30 days'), whichever each engine met
         * first, so it is only output, as a fuzzy term is, and nothing is computed from it.
         */
        Col representative() {
            return type.id() == TypeId.INTERVAL ? new Col(qualifier, name, type, exactType, bound, dyadic, true) : this;
        }

        static Col of(String qualifier, String name, Term t) {
            return new Col(qualifier, name, t.type(), t.exactType(), t.bound(), t.dyadic(), t.fuzzy());
        }
    }

    Rel {
        cols = List.copyOf(cols);
    }

    /** An unordered relation. */
    static Rel of(Plan plan, String sql, List<Col> cols, double maxRows) {
        return new Rel(plan, sql, cols, maxRows, null, null, false);
    }

    boolean ordered() {
        return orderBy != null;
    }

    boolean anyFuzzy() {
        for (Col c : cols) {
            if (c.fuzzy()) {
                return true;
            }
        }
        return false;
    }

    /** The columns as terms of a query reading this relation as {@code alias}. */
    List<Term> terms(String alias, boolean withFuzzy) {
        List<Term> terms = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            if (withFuzzy || !cols.get(i).fuzzy()) {
                terms.add(cols.get(i).term(alias, i));
            }
        }
        return terms;
    }

    /** "alias.k0 AS k0, alias.k1 AS k1, ...": every column, passed through. */
    String passThrough(String alias) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cols.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(alias).append(".k").append(i).append(" AS k").append(i);
        }
        return sb.toString();
    }

    /** True when no two columns share a name, so {@code Plan.as} keeps every column addressable. */
    boolean namesUnique() {
        Set<String> seen = new HashSet<>();
        for (Col c : cols) {
            if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        return true;
    }

    /** True when each column's reference resolves to it alone, as {@code Schema.resolve} decides. */
    static boolean resolvable(List<Col> cols) {
        for (int i = 0; i < cols.size(); i++) {
            if (resolve(cols, cols.get(i).ref()) != i) {
                return false;
            }
        }
        return true;
    }

    /** Schema.resolve's rule: the index, -1 when none matches, -2 when several do. */
    static int resolve(List<Col> cols, String reference) {
        int dot = reference.lastIndexOf('.');
        String qualifier = dot < 0 ? null : reference.substring(0, dot);
        String name = dot < 0 ? reference : reference.substring(dot + 1);
        int found = -1;
        for (int i = 0; i < cols.size(); i++) {
            Col c = cols.get(i);
            boolean nameMatches = c.name().equalsIgnoreCase(name);
            boolean qualifierMatches = qualifier == null
                    || (c.qualifier() != null && c.qualifier().equalsIgnoreCase(qualifier));
            if (nameMatches && qualifierMatches) {
                if (found != -1) {
                    return -2;
                }
                found = i;
            }
        }
        return found;
    }
}
