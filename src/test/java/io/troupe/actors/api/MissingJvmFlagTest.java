package io.troupe.actors.api;

import io.troupe.ChildJvm;
import io.troupe.config.TroupeSettings;
import io.troupe.operators.plan.Plan;
import io.troupe.transport.aeron.EmbeddedAeron;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static io.troupe.operators.plan.Expr.col;
import static io.troupe.operators.plan.Expr.sum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A new user's JVM, started without the flag Agrona needs, gets an error from
 * {@code Troupe.start()} (the default starts workers, so the Aeron driver) that names the flag, where
 * it goes and the ways around it, instead of Agrona's IllegalAccessError; the ways around it work.
 */
class MissingJvmFlagTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    @Timeout(120)
    void shouldNameTheFlagWhenTheJvmLacksIt() throws Exception {
        try (ChildJvm user = ChildJvm.startBare(NewUser.class, List.of("-Xmx256m"))) {
            assertEquals(0, user.awaitExit(BOUND), user.output());
            String error = user.awaitLine("START: ", Duration.ZERO);
            assertTrue(error.startsWith("START: IllegalStateException Troupe's Aeron transport needs the JVM flag "
                    + EmbeddedAeron.REQUIRED_JVM_FLAG + " (on the java command line, or in Maven Surefire's argLine)"),
                    user.output());
            assertEquals("LEADER: [[500500]]", user.awaitLine("LEADER: ", Duration.ZERO), user.output());
            assertEquals("LOCKED QUEUE: [[500500]]", user.awaitLine("LOCKED QUEUE: ", Duration.ZERO), user.output());
        }
    }

    /** A JVM without the flag: what Troupe.start() says, then the two ways around it. */
    static final class NewUser {

        public static void main(String[] args) {
            Plan sum = Plan.series("i", 1, 1000).aggregate(List.of(), sum(col("i")));
            try (Troupe troupe = Troupe.start()) {
                System.out.println("UNEXPECTED: started " + troupe.execute(sum).rows());
            } catch (RuntimeException e) {
                System.out.println("START: " + e.getClass().getSimpleName() + " " + e.getMessage());
            }
            try (Troupe troupe = Troupe.start(TroupeSettings.load().withDefaultWorkers(0))) {
                System.out.println("LEADER: " + troupe.execute(sum).rows());
            }
            TroupeSettings locked = TroupeSettings.from(com.typesafe.config.ConfigFactory.parseString(
                    "troupe.gather.transport = locked-queue"));
            try (Troupe troupe = Troupe.start(locked)) {
                System.out.println("LOCKED QUEUE: " + troupe.execute(sum, QueryOptions.defaults().withWorkers(2)).rows());
            }
        }
    }
}
