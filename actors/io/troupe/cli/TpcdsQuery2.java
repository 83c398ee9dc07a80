package io.troupe.cli;

import io.troupe.operators.plan.Expr;
import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.troupe.operators.plan.Expr.caseWhen;
import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.round;
import static io.troupe.operators.plan.Expr.sum;

/**
 * TPC-DS query 2 (bench workload W3), as SQL for a peer and as a Troupe plan written by hand. The SQL
 * is the peers' measured text:
 * the official template with YEAR = 2001 and one alias added for PostgreSQL. The plan follows it
 * node for node: the common table expression {@code wswscs} is read twice, so {@link #wswscs()} is
 * {@link Plan#share shared}: computed once per query and scanned by y and z, as DuckDB and
 * PostgreSQL materialise it once and scan it twice; date_dim is narrowed to the columns q2 reads
 * before each join. {@code round(x / y, 2)} of two decimal sums divides in FLOAT64 and rounds half away from zero, as DuckDB does.
 *
 * <p>Stateless; threadsafe.
 */
final class TpcdsQuery2 {

    /** The tables q2 reads. */
    static final List<String> TABLES = List.of("date_dim", "web_sales", "catalog_sales");

    static final String SQL = """
            with wscs as
             (select sold_date_sk
                    ,sales_price
              from (select ws_sold_date_sk sold_date_sk
                          ,ws_ext_sales_price sales_price
                    from web_sales
                    union all
                    select cs_sold_date_sk sold_date_sk
                          ,cs_ext_sales_price sales_price
                    from catalog_sales) wscs_u),
             wswscs as
             (select d_week_seq,
                    sum(case when (d_day_name='Sunday') then sales_price else null end) sun_sales,
                    sum(case when (d_day_name='Monday') then sales_price else null end) mon_sales,
                    sum(case when (d_day_name='Tuesday') then sales_price else null end) tue_sales,
                    sum(case when (d_day_name='Wednesday') then sales_price else null end) wed_sales,
                    sum(case when (d_day_name='Thursday') then sales_price else null end) thu_sales,
                    sum(case when (d_day_name='Friday') then sales_price else null end) fri_sales,
                    sum(case when (d_day_name='Saturday') then sales_price else null end) sat_sales
             from wscs
                 ,date_dim
             where d_date_sk = sold_date_sk
             group by d_week_seq)
             select d_week_seq1
                   ,round(sun_sales1/sun_sales2,2)
                   ,round(mon_sales1/mon_sales2,2)
                   ,round(tue_sales1/tue_sales2,2)
                   ,round(wed_sales1/wed_sales2,2)
                   ,round(thu_sales1/thu_sales2,2)
                   ,round(fri_sales1/fri_sales2,2)
                   ,round(sat_sales1/sat_sales2,2)
             from
             (select wswscs.d_week_seq d_week_seq1
                    ,sun_sales sun_sales1
                    ,mon_sales mon_sales1
                    ,tue_sales tue_sales1
                    ,wed_sales wed_sales1
                    ,thu_sales thu_sales1
                    ,fri_sales fri_sales1
                    ,sat_sales sat_sales1
              from wswscs,date_dim
              where date_dim.d_week_seq = wswscs.d_week_seq and
                    d_year = 2001) y,
             (select wswscs.d_week_seq d_week_seq2
                    ,sun_sales sun_sales2
                    ,mon_sales mon_sales2
                    ,tue_sales tue_sales2
                    ,wed_sales wed_sales2
                    ,thu_sales thu_sales2
                    ,fri_sales fri_sales2
                    ,sat_sales sat_sales2
              from wswscs
                  ,date_dim
              where date_dim.d_week_seq = wswscs.d_week_seq and
                    d_year = 2001+1) z
             where d_week_seq1=d_week_seq2-53
             order by d_week_seq1
            """;

    /** The days in q2's column order, as date_dim.d_day_name spells them. */
    private static final List<String> DAYS = List.of("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
            "Friday", "Saturday");

    private TpcdsQuery2() {
    }

    /** q2 as a Troupe plan: d_week_seq1 and the seven rounded ratios, ordered by d_week_seq1. */
    static Plan plan() {
        Plan wswscs = wswscs().share("wswscs");
        Plan y = weeksOfYear(wswscs, 2001, "1").as("y");
        Plan z = weeksOfYear(wswscs, 2002, "2").as("z");
        List<Expr> out = new ArrayList<>();
        out.add(col("y.d_week_seq1").as("d_week_seq1"));
        for (String day : DAYS) {
            String p = prefix(day);
            out.add(round(col("y." + p + "_sales1").div(col("z." + p + "_sales2")), 2).as(p + "_ratio"));
        }
        return y.join(z, JoinType.INNER, col("y.d_week_seq1").eq(col("z.d_week_seq2").minus(lit(53))))
                .project(out.toArray(Expr[]::new))
                .sort(col("d_week_seq1").asc());
    }

    /**
     * The subqueries y and z: the shared {@code wswscs} for every date_dim row of {@code year} in one
     * of its weeks, the columns renamed with {@code suffix}.
     */
    private static Plan weeksOfYear(Plan wswscs, int year, String suffix) {
        Plan days = Plan.scan("date_dim")
                .filter(col("d_year").eq(lit(year)))
                .project(col("d_week_seq"))
                .as("d");
        List<Expr> out = new ArrayList<>();
        out.add(col("w.d_week_seq").as("d_week_seq" + suffix));
        for (String day : DAYS) {
            out.add(col("w." + prefix(day) + "_sales").as(prefix(day) + "_sales" + suffix));
        }
        return wswscs.as("w")
                .join(days, JoinType.INNER, col("w.d_week_seq").eq(col("d.d_week_seq")))
                .project(out.toArray(Expr[]::new));
    }

    /** The common table expression wswscs, to be shared by its uses: the week's sales per day of the week. */
    private static Plan wswscs() {
        Plan wscs = Plan.scan("web_sales")
                .project(col("ws_sold_date_sk").as("sold_date_sk"), col("ws_ext_sales_price").as("sales_price"))
                .unionAll(Plan.scan("catalog_sales")
                        .project(col("cs_sold_date_sk").as("sold_date_sk"), col("cs_ext_sales_price").as("sales_price")))
                .as("wscs");
        Plan dates = Plan.scan("date_dim")
                .project(col("d_date_sk"), col("d_week_seq"), col("d_day_name"))
                .as("d");
        List<Expr> sums = new ArrayList<>();
        for (String day : DAYS) {
            sums.add(sum(caseWhen(col("d.d_day_name").eq(lit(day)), col("wscs.sales_price")).end())
                    .as(prefix(day) + "_sales"));
        }
        return wscs.join(dates, JoinType.INNER, col("wscs.sold_date_sk").eq(col("d.d_date_sk")))
                .aggregate(List.of(col("d.d_week_seq").as("d_week_seq")), sums.toArray(Expr[]::new));
    }

    /** sun, mon, ... as q2 names its columns. */
    private static String prefix(String day) {
        return day.substring(0, 3).toLowerCase(Locale.ROOT);
    }
}
