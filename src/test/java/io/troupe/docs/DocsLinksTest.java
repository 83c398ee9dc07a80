package io.troupe.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every relative link of README.md, docker/README.md and the Markdown pages under docs/ leads somewhere: the file or
 * folder it names exists, and a {@code #fragment} is the anchor of a heading of the page it names (or of its own
 * page).
 * Links with a scheme ({@code https:}) are not followed. Reads files only.
 */
class DocsLinksTest {

    @Test
    void shouldResolveEveryRelativeLinkOfTheReadmesAndTheDocs() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(Path.of("README.md"));
        pages.add(Path.of("docker", "README.md"));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        assertTrue(Files.isRegularFile(pages.get(0)), "README.md not found; run the tests from the project root");
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            MarkdownLinks links = MarkdownLinks.read(page);
            for (MarkdownLinks.Link link : links.links()) {
                String problem = problem(page, links, link.target());
                if (problem != null) {
                    broken.add(page + ":" + link.line() + ": " + link.target() + ": " + problem);
                }
                checked++;
            }
        }
        assertTrue(checked > 0, "no links found in " + pages);
        assertTrue(broken.isEmpty(), broken.size() + " broken links:\n" + String.join("\n", broken));
    }

    /** Why {@code target}, a link on {@code page}, leads nowhere; null when it resolves or is not relative. */
    private static String problem(Path page, MarkdownLinks links, String target) {
        if (target.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String fragment = hash < 0 ? null : target.substring(hash + 1);
        MarkdownLinks anchors = links;
        if (!path.isEmpty()) {
            Path parent = page.toAbsolutePath().getParent();
            Path resolved = parent.resolve(path).normalize();
            if (!Files.exists(resolved)) {
                return "no such file " + resolved;
            }
            if (fragment == null) {
                return null;
            }
            if (!path.endsWith(".md")) {
                return "a fragment on a page that is not Markdown";
            }
            anchors = MarkdownLinks.read(resolved);
        }
        return fragment == null || anchors.hasAnchor(fragment) ? null : "no heading with the anchor #" + fragment;
    }
}
