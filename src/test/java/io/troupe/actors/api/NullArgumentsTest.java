package io.troupe.actors.api;

import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;
import io.troupe.operators.plan.SortKey;
import io.troupe.operators.table.Table;
import io.troupe.operators.types.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A null where the public API wants a value (a table, a plan, a column name, an expression) is an
 * IllegalArgumentException at the call, naming the method and the argument, not a
 * NullPointerException from deep inside a later call; and the Troupe goes on.
 */
class NullArgumentsTest {

    private static Troupe troupe;

    @BeforeAll
    static void start() {
        troupe = FactsAndDims.start();
    }

    @AfterAll
    static void close() {
        troupe.close();
    }

    static Stream<Arguments> calls() {
        Plan facts = Plan.scan("facts");
        Expr id = col("id");
        QueryOptions leader = QueryOptions.defaults().withWorkers(0);
        return Stream.of(
                call("Troupe.register: table must not be null", () -> troupe.register(null)),
                call("Troupe.execute: plan must not be null", () -> troupe.execute(null)),
                call("Troupe.execute: plan must not be null", () -> troupe.execute(null, leader)),
                call("Troupe.execute: options must not be null", () -> troupe.execute(facts, null)),
                call("Troupe.submit: plan must not be null", () -> troupe.submit(null, leader)),
                call("Troupe.stream: options must not be null", () -> troupe.stream(facts, null)),
                call("Troupe.explainAnalyze: plan must not be null", () -> troupe.explainAnalyze(null, leader)),
                call("Troupe.explain: plan must not be null", () -> troupe.explain(null)),
                call("Troupe.createTable: name must not be null", () -> troupe.createTable(null, facts)),
                call("Troupe.createTable: plan must not be null", () -> troupe.createTable("t", null)),
                call("Troupe.analyze: table must not be null", () -> troupe.analyze(null)),
                call("Troupe.sql: sql must not be null", () -> troupe.sql(null)),
                call("Troupe.sql: sql must not be null", () -> troupe.sql(null, leader)),
                call("Troupe.sql: options must not be null", () -> troupe.sql("SELECT id FROM facts", null)),
                call("Troupe.planSql: sql must not be null", () -> troupe.planSql(null)),
                call("Troupe.explainSql: sql must not be null", () -> troupe.explainSql(null)),
                call("Troupe.explainSql: options must not be null",
                        () -> troupe.explainSql("SELECT id FROM facts", null)),
                call("Troupe.start: settings must not be null", () -> Troupe.start((TroupeSettings) null)),
                call("RunningQuery.cancel: reason must not be null",
                        () -> troupe.submit(facts, leader).cancel(null)),
                call("Catalog.register: table must not be null", () -> troupe.catalog().register(null)),
                call("Plan.scan: table must not be null", () -> Plan.scan(null)),
                call("Plan.series: column must not be null", () -> Plan.series(null, 1, 2)),
                call("Plan.as: alias must not be null", () -> facts.as(null)),
                call("Plan.filter: predicate must not be null", () -> facts.filter(null)),
                call("Plan.project: columns must not be null", () -> facts.project((Expr[]) null)),
                call("Plan.project: columns[1] must not be null", () -> facts.project(id, null)),
                call("Plan.join: right must not be null", () -> facts.join(null, JoinType.INNER, id.eq(id))),
                call("Plan.join: type must not be null", () -> facts.join(facts, null, id.eq(id))),
                call("Plan.join: on must not be null", () -> facts.join(facts, JoinType.INNER, null)),
                call("Plan.aggregate: groupBy must not be null", () -> facts.aggregate(null, Expr.count())),
                call("Plan.aggregate: groupBy[1] must not be null",
                        () -> facts.aggregate(Arrays.asList(id, null), Expr.count())),
                call("Plan.aggregate: aggregates[0] must not be null",
                        () -> facts.aggregate(List.of(id), (Expr) null)),
                call("Plan.having: predicate must not be null", () -> facts.having(null)),
                call("Plan.sort: keys[0] must not be null", () -> facts.sort((SortKey) null)),
                call("Plan.unionAll: other must not be null", () -> facts.unionAll(null)),
                call("Plan.validate: catalog must not be null", () -> facts.validate(null)),
                call("Expr.col: reference must not be null", () -> col(null)),
                call("Expr.lit: value must not be null", () -> lit((BigDecimal) null)),
                call("Expr.nullOf: type must not be null", () -> Expr.nullOf(null)),
                call("Expr EQ: argument 2 must not be null", () -> id.eq(null)),
                call("Expr ADD: argument 2 must not be null", () -> id.plus(null)),
                call("Expr BETWEEN: argument 3 must not be null", () -> id.between(lit(1), null)),
                call("Expr.in: candidates[1] must not be null", () -> id.in(lit(1), null)),
                call("Expr.like: pattern must not be null", () -> col("s").like(null)),
                call("Expr.cast: type must not be null", () -> id.cast(null)),
                call("Expr.coalesce: values[0] must not be null", () -> Expr.coalesce(null, id)),
                call("Expr UPPER: argument 1 must not be null", () -> Expr.upper(null)),
                call("Expr.caseWhen: result must not be null", () -> Expr.caseWhen(id.gt(lit(1)), null)),
                call("Expr.CaseBuilder.otherwise: elseResult must not be null",
                        () -> Expr.caseWhen(id.gt(lit(1)), id).otherwise(null)),
                call("Expr.sum: value must not be null", () -> Expr.sum(null)),
                call("Expr.count: value must not be null", () -> Expr.count(null)),
                call("Expr.as: name must not be null", () -> id.as(null)),
                call("Table: name must not be null", () -> new Table(null, Schema.of(), List.of())),
                call("Table: schema must not be null", () -> new Table("t", null, List.of())));
    }

    private static Arguments call(String message, Executable call) {
        return Arguments.of(message, call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void aNullArgumentIsAClearErrorAtTheCall(String message, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertEquals(message, e.getMessage());
        assertEquals(5000, troupe.execute(Plan.scan("facts"), QueryOptions.defaults().withWorkers(0)).rowCount());
    }
}
