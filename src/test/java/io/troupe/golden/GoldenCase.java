package io.troupe.golden;

import java.util.List;

/**
 * One case of a golden file: a {@code query} with expected rows, or a {@code statement error}
 * with the text its failure message must contain. Immutable.
 *
 * @param kind          query or error
 * @param line          the file line of the case's header
 * @param types         QUERY: the column type codes ({@code ILT...}); ERROR: empty
 * @param rowSort       QUERY: compare rows as a multiset (sorted as text) instead of in order
 * @param planText      the plan lines
 * @param planLine      the file line the plan starts on
 * @param sql           the equivalent DuckDB SQL; null only for an error case that has none
 * @param errorText     ERROR: the text the message must contain; QUERY: null
 * @param expected      QUERY: the expected rows, canonical text with tabs; ERROR: empty
 * @param expectedFrom  QUERY: the index (0-based) of the first expected-row line in the file
 * @param expectedTo    QUERY: the index just past the last expected-row line
 */
record GoldenCase(Kind kind, int line, String types, boolean rowSort, String planText, int planLine, String sql,
                  String errorText, List<String> expected, int expectedFrom, int expectedTo) {

    /** What a case asserts. */
    enum Kind {
        QUERY,
        ERROR
    }

    GoldenCase {
        expected = List.copyOf(expected);
    }

    /** A short title for test reports: the line and the plan's first line. */
    String title() {
        String first = planText.lines().findFirst().orElse("").trim();
        return "line " + line + (kind == Kind.ERROR ? " error: " : ": ") + first;
    }
}
