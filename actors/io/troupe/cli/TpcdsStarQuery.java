package io.troupe.cli;

import io.troupe.operators.plan.JoinType;
import io.troupe.operators.plan.Plan;

import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.lit;
import static io.troupe.operators.plan.Expr.sum;

/**
 * TPC-DS query 52, a star join (bench workload STAR): the brands of manager 1's items sold in November
 * 2000. The SQL is the official template with its FROM list's fact table first, every condition in WHERE
 * above the joins, as a user writes it; the plan is the same query ordered by hand: each dimension
 * filtered and narrowed to the columns the query reads, the fact table probing them (date_dim's 30 days
 * first, then item's manager). Troupe's SQL planner has to find the second from the first, and its
 * optimizer the second's order from a plan written in a bad one ({@link #literal}).
 *
 * <p>Stateless; threadsafe.
 */
final class TpcdsStarQuery {

    /** The tables q52 reads. */
    static final List<String> TABLES = List.of("store_sales", "date_dim", "item");

    static final String SQL = """
            select dt.d_year
                  ,item.i_brand_id brand_id
                  ,item.i_brand brand
                  ,sum(ss_ext_sales_price) ext_price
             from store_sales
                 ,date_dim dt
                 ,item
             where dt.d_date_sk = store_sales.ss_sold_date_sk
                and store_sales.ss_item_sk = item.i_item_sk
                and item.i_manager_id = 1
                and dt.d_moy=11
                and dt.d_year=2000
             group by dt.d_year
                    ,item.i_brand
                    ,item.i_brand_id
             order by dt.d_year
                     ,ext_price desc
                     ,brand_id
             limit 100
            """;

    private TpcdsStarQuery() {
    }

    /**
     * q52 as a plan written in no good order: the item dimension first, the fact table its hash table, then
     * date_dim's, every condition above the joins, all columns carried; {@code Troupe.optimize} has to find
     * {@link #plan}'s order in it.
     */
    static Plan literal() {
        return Plan.scan("item")
                .join(Plan.scan("store_sales"), JoinType.INNER, col("ss_item_sk").eq(col("i_item_sk")))
                .join(Plan.scan("date_dim").as("dt"), JoinType.INNER, col("dt.d_date_sk").eq(col("ss_sold_date_sk")))
                .filter(col("i_manager_id").eq(lit(1)).and(col("dt.d_moy").eq(lit(11)))
                        .and(col("dt.d_year").eq(lit(2000))))
                .aggregate(List.of(col("dt.d_year").as("d_year"), col("i_brand").as("brand"),
                        col("i_brand_id").as("brand_id")), sum(col("ss_ext_sales_price")).as("ext_price"))
                .project(col("d_year"), col("brand_id"), col("brand"), col("ext_price"))
                .sort(col("d_year").asc(), col("ext_price").desc(), col("brand_id").asc())
                .limit(100);
    }

    /** q52 ordered by hand: d_year, brand_id, brand, ext_price, ordered as the SQL orders them. */
    static Plan plan() {
        Plan days = Plan.scan("date_dim")
                .filter(col("d_moy").eq(lit(11)).and(col("d_year").eq(lit(2000))))
                .project(col("d_date_sk"), col("d_year"))
                .as("dt");
        Plan items = Plan.scan("item")
                .filter(col("i_manager_id").eq(lit(1)))
                .project(col("i_item_sk"), col("i_brand_id"), col("i_brand"))
                .as("it");
        return Plan.scan("store_sales")
                .project(col("ss_sold_date_sk"), col("ss_item_sk"), col("ss_ext_sales_price"))
                .as("ss")
                .join(days, JoinType.INNER, col("ss.ss_sold_date_sk").eq(col("dt.d_date_sk")))
                .join(items, JoinType.INNER, col("ss.ss_item_sk").eq(col("it.i_item_sk")))
                .aggregate(List.of(col("dt.d_year").as("d_year"), col("it.i_brand").as("brand"),
                        col("it.i_brand_id").as("brand_id")), sum(col("ss.ss_ext_sales_price")).as("ext_price"))
                .project(col("d_year"), col("brand_id"), col("brand"), col("ext_price"))
                .sort(col("d_year").asc(), col("ext_price").desc(), col("brand_id").asc())
                .limit(100);
    }
}
