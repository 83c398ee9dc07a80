package io.troupe.operators.plan;

import io.troupe.operators.exec.Pipeline;
import io.troupe.operators.exec.StateKey;
import io.troupe.operators.fragment.ExchangeKind;
import io.troupe.operators.recursive.Recursion;
import io.troupe.operators.recursive.RecursionResultSource;
import io.troupe.operators.recursive.RecursiveUnionSink;
import io.troupe.operators.table.Catalog;
import io.troupe.operators.types.DataType;
import io.troupe.operators.types.Field;
import io.troupe.operators.types.Schema;

import java.util.ArrayList;
import java.util.List;

/**
 * WITH RECURSIVE (PostgreSQL's "Recursive Union"): the rows of the non-recursive term ({@link #seed}), then of the
 * recursive term ({@link #step}) run again and again over the rows the last run added, its {@link WorkTableScanNode}s
 * reading them, until a run adds none. UNION ALL keeps every row; UNION drops each row that an earlier run, or the
 * same one, produced. The columns are named by the non-recursive term and are nullable; the recursive term's must
 * have their types.
 *
 * <p>Compiles to the non-recursive term's pipelines ending in a {@link RecursiveUnionSink#seed}, the recursive term's
 * ending in a {@link RecursiveUnionSink#step} (the loop's body, which the executor runs again while the sink asks),
 * and a {@link RecursionResultSource} that reads every row once the loop ended; every round runs in parallel like any
 * other subplan. See {@code io.troupe.operators.recursive} for the protocol.
 *
 * <p>Immutable and threadsafe; its {@link WorkTable}'s identity ties the work table's scans to it.
 */
final class RecursiveUnionNode extends Plan {

    /**
     * The work table of one recursive union: its name, and the non-recursive term whose columns it has. Its
     * identity is what a {@link WorkTableScanNode} reads. Immutable and threadsafe.
     */
    static final class WorkTable {
        private final String name;
        private final Plan seed;

        WorkTable(String name, Plan seed) {
            this.name = name;
            this.seed = seed;
        }

        String name() {
            return name;
        }

        Plan seed() {
            return seed;
        }

        /** The work table's columns: the non-recursive term's names, unqualified and nullable. */
        Schema schema(Catalog catalog) {
            List<Field> fields = new ArrayList<>();
            for (Field f : seed.deriveSchema(catalog).fields()) {
                fields.add(new Field(null, f.name(), f.type(), true));
            }
            return new Schema(fields);
        }
    }

    /** Where a work table's rows are read, while its recursive union compiles. */
    record WorkTableRead(StateKey<Recursion> key, Pipeline producer) {
    }

    private final WorkTable table;
    private final Plan step;
    private final boolean all;

    RecursiveUnionNode(WorkTable table, Plan step, boolean all) {
        this.table = table;
        this.step = step;
        this.all = all;
    }

    WorkTable table() {
        return table;
    }

    String name() {
        return table.name();
    }

    Plan seed() {
        return table.seed();
    }

    Plan step() {
        return step;
    }

    boolean all() {
        return all;
    }

    @Override
    public List<Plan> children() {
        return List.of(table.seed(), step);
    }

    @Override
    public String label() {
        return "Recursive Union " + table.name() + (all ? "" : " (distinct rows)");
    }

    @Override
    Schema deriveSchema(Catalog catalog) {
        Schema seed = table.schema(catalog);
        Schema recursive = step.deriveSchema(catalog);
        if (seed.size() != recursive.size()) {
            throw new PlanException(label(), "the non-recursive term has " + seed.size()
                    + " columns and the recursive term " + recursive.size());
        }
        for (int i = 0; i < seed.size(); i++) {
            if (!seed.type(i).equals(recursive.type(i))) {
                throw new PlanException(label(), "column " + (i + 1) + " is " + seed.type(i) + " ("
                        + seed.field(i).name() + ") in the non-recursive term but " + recursive.type(i) + " ("
                        + recursive.field(i).name() + ") in the recursive term; cast one");
            }
        }
        return seed;
    }

    /** A new work table over the rebuilt non-recursive term, and the recursive term's scans of it rebuilt to read it. */
    @Override
    Plan withParameters(ParameterBinding binding) {
        WorkTable rebuilt = new WorkTable(table.name(), binding.plan(table.seed()));
        Plan recursive = binding.within(node -> node instanceof WorkTableScanNode scan && scan.table() == table
                ? new WorkTableScanNode(rebuilt, scan.alias()) : null).plan(step);
        return new RecursiveUnionNode(rebuilt, recursive, all);
    }

    @Override
    PipelineBuilder compileNode(PlanCompiler compiler) {
        List<DataType> types = new ArrayList<>();
        for (Field f : deriveSchema(compiler.catalog()).fields()) {
            types.add(f.type());
        }
        StateKey<Recursion> key = compiler.newKey("recursive-" + table.name(), Recursion.class);
        Pipeline seeded = table.seed().compile(compiler).into(RecursiveUnionSink.seed(key, table.name(), types, all,
                compiler.settings().sql().recursionLimit()));
        // The loop's body: every pipeline registered from here on, up to the recursive term's last.
        int loopStart = seeded.id() + 1;
        Pipeline last = compiler.withWorkTable(table, new WorkTableRead(key, seeded), () -> step.compile(compiler))
                .dependsOn(seeded, ExchangeKind.Forward.KEPT, this).into(RecursiveUnionSink.step(key, loopStart));
        return compiler.source(new RecursionResultSource(key)).dependsOn(last, ExchangeKind.Forward.KEPT, this);
    }
}
