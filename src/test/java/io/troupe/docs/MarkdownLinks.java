package io.troupe.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The links and headings of one Markdown file as GitHub renders it: inline links {@code [text](target)} and
 * reference definitions {@code [name]: target} outside fenced code blocks and inline code, and each heading's
 * anchor (GitHub's slug: lower case, punctuation dropped, spaces to hyphens, {@code -1}, {@code -2} for repeats).
 * What {@link DocsLinksTest} checks and the SQL reference's test reads its index with. Immutable.
 */
public final class MarkdownLinks {

    /** A link's target as written (a path, a path and a fragment, or a fragment) and the line it is on. */
    public record Link(int line, String target) {
    }

    private static final Pattern INLINE = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern DEFINITION = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern LINK_TEXT = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

    private final Path file;
    private final List<Link> links;
    private final Set<String> anchors;

    private MarkdownLinks(Path file, List<Link> links, Set<String> anchors) {
        this.file = file;
        this.links = links;
        this.anchors = anchors;
    }

    /** Reads {@code file} (UTF-8). */
    public static MarkdownLinks read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Link> links = new ArrayList<>();
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        String fence = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String trimmed = line.trim();
            if (fence != null) {
                if (trimmed.startsWith(fence) && trimmed.replace("`", "").replace("~", "").isEmpty()) {
                    fence = null;
                }
                continue;
            }
            if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
                fence = trimmed.substring(0, 3);
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(2));
                int repeat = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(repeat == 0 ? slug : slug + "-" + repeat);
            }
            String prose = CODE_SPAN.matcher(line).replaceAll("");
            Matcher definition = DEFINITION.matcher(prose);
            if (definition.matches()) {
                links.add(new Link(i + 1, definition.group(1)));
            }
            Matcher inline = INLINE.matcher(prose);
            while (inline.find()) {
                links.add(new Link(i + 1, inline.group(1)));
            }
        }
        return new MarkdownLinks(file, List.copyOf(links), Set.copyOf(anchors));
    }

    public Path file() {
        return file;
    }

    public List<Link> links() {
        return links;
    }

    /** True when a heading of this file has the anchor {@code fragment} (without its {@code #}). */
    public boolean hasAnchor(String fragment) {
        return anchors.contains(fragment);
    }

    /** GitHub's anchor of a heading's text: its words lower case, joined by hyphens, without punctuation. */
    static String slug(String heading) {
        String text = LINK_TEXT.matcher(heading).replaceAll("$1").toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }
}
