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
 * prompts.
 */
final class SqlShell {

    /** Whether the prompts show: on a terminal, not over lines piped in. */
    enum Prompts { SHOWN, HIDDEN }

    private SqlShell() {
    }

    static void run(Terminal terminal, SqlSession session, Path history, Prompts prompts) {
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
                return;
            }
            if (session.feed(line) == SqlSession.Outcome.QUIT) {
                return;
            }
        }
    }
}
