package io.troupe.cli;

import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

import java.nio.file.Path;

/**
 * The interactive loop of {@code bin/troupe sql} over a JLine terminal: line editing, a history kept in
 * {@code history} across sessions, a prompt that says whether a statement is under way ({@code troupe=>} or
 * {@code troupe->}), each line given to the {@link SqlSession}. Ctrl-C at the prompt drops the statement under
 * way and during a statement cancels it; Ctrl-D or {@code \q} ends the session. An error prints and the session
 * goes on. Over a dumb terminal (stdin not a terminal, e.g. a script piped in) it reads the same way, without
 * prompts, and the first statement or command that fails ends it, as psql's ON_ERROR_STOP and DuckDB's CLI stop a
 * script: what follows a failed CREATE or INSERT must not run over tables that are not as the script expects.
 */
final class SqlShell {

    /** Whether the prompts show: on a terminal, not over lines piped in. */
    enum Prompts { SHOWN, HIDDEN }

    private SqlShell() {
    }

    /**
     * Reads and runs lines until Ctrl-D, {@code \q} or, with prompts {@link Prompts#HIDDEN}, the first failure.
     *
     * @return {@link SqlSession.Outcome#FAILED} when a failure ended a session without prompts, else
     *         {@link SqlSession.Outcome#QUIT}
     */
    static SqlSession.Outcome run(Terminal terminal, SqlSession session, Path history, Prompts prompts) {
        LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("troupe")
                .variable(LineReader.HISTORY_FILE, history)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true) // '!' is SQL, not a history reference
                .build();
        terminal.handle(Terminal.Signal.INT, signal -> session.cancel());
        while (true) {
            String line;
            try {
                line = reader.readLine(prompts == Prompts.HIDDEN ? "" : session.midStatement() ? "troupe-> " : "troupe=> ");
            } catch (UserInterruptException e) {
                session.discard();
                continue;
            } catch (EndOfFileException e) {
                // A script's last statement may lack its ';', as in -f.
                if (prompts == Prompts.HIDDEN && session.finish() == SqlSession.Outcome.FAILED) {
                    return SqlSession.Outcome.FAILED;
                }
                return SqlSession.Outcome.QUIT;
            }
            SqlSession.Outcome outcome = session.feed(line);
            if (outcome == SqlSession.Outcome.QUIT || outcome == SqlSession.Outcome.FAILED && prompts == Prompts.HIDDEN) {
                return outcome;
            }
        }
    }
}
