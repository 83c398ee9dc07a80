package io.troupe.operators.types;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Column lists as golden files and loadtest's CSV headers declare them. */
class SchemaParseTest {

    @Test
    void shouldParseColumnsWithTypesAndNotNull() {
        assertEquals(Schema.of(Field.of("id", DataType.INT64).withNullable(false),
                        Field.of("amount", DataType.decimal(7, 2)), Field.of("day", DataType.DATE),
                        Field.of("ok", DataType.BOOLEAN).withNullable(false)),
                Schema.parse("id INT64 NOT NULL, amount DECIMAL(7, 2),day date,  ok bool not null"));
    }

    @Test
    void shouldNameTheColumnThatIsWrong() {
        assertEquals("expected 'name TYPE [NOT NULL]', found: amount",
                assertThrows(IllegalArgumentException.class, () -> Schema.parse("id INT32, amount")).getMessage());
        assertEquals("column b: unknown type: INT99",
                assertThrows(IllegalArgumentException.class, () -> Schema.parse("a INT32, b INT99")).getMessage());
        assertEquals("column c: invalid decimal type: DECIMAL(x,2)",
                assertThrows(IllegalArgumentException.class, () -> Schema.parse("c DECIMAL(x,2)")).getMessage());
    }
}
