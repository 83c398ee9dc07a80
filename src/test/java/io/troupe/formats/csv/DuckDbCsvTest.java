package io.troupe.formats.csv;

import io.troupe.oracle.DuckDbOracle;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The DuckDB that a CSV test class compares with, opened once for the class. */
abstract class DuckDbCsvTest {

    static DuckDbOracle duck;

    @BeforeAll
    static void openDuckDb() throws Exception {
        duck = new DuckDbOracle();
    }

    @AfterAll
    static void closeDuckDb() throws Exception {
        duck.close();
    }
}
