package io.mykit.delay.test.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every relative link in README.md and docs/ names a file that exists and, after '#', a heading of that file. */
class DocumentationLinksTest {
    private static final Pattern LINK = Pattern.compile("!?\\[[^]]*]\\(([^)\\s]+)\\)");

    @Test
    void every_link_resolves_to_a_file_and_an_anchor() {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : DocPages.pages()) {
            for (String line : DocPages.prose(page)) {
                Matcher link = LINK.matcher(line.replaceAll("`[^`]*`", ""));
                while (link.find()) {
                    String target = link.group(1);
                    if (target.matches("^[a-z]+:.*")) {
                        continue;
                    }
                    checked++;
                    String problem = problem(page, target);
                    if (problem != null) {
                        broken.add(DocPages.root().relativize(page) + ": " + target + " (" + problem + ")");
                    }
                }
            }
        }
        assertThat(checked).as("relative links found").isGreaterThan(20);
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void readme_opens_with_the_two_commands_and_stays_short() {
        List<String> lines =
                List.of(DocPages.text(DocPages.root().resolve("README.md")).split("\n", -1));
        assertThat(lines.subList(0, 6))
                .containsExactly(
                        "# mykit-delay",
                        "",
                        "```",
                        "mvn -B -q -DskipTests package && java -XX:MaxGCPauseMillis=10 "
                                + "-XX:+ExitOnOutOfMemoryError -jar mykit-delay-core/target/mykit-delay.jar",
                        "mvn -B verify",
                        "```");
        assertThat(lines.size()).as("README.md lines").isLessThanOrEqualTo(250);
    }

    @Test
    void anchors_follow_the_renderers_rule() {
        assertThat(DocPages.anchor("Start-up and the JVM")).isEqualTo("start-up-and-the-jvm");
        assertThat(DocPages.anchor("`mykit.delay.*` keys, **all** of them")).isEqualTo("mykitdelay-keys-all-of-them");
        assertThat(DocPages.anchor("Redis Cluster")).isEqualTo("redis-cluster");
    }

    private static String problem(Path page, String target) {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (hash < 0) {
            return null;
        }
        if (!resolved.toString().endsWith(".md")) {
            return "an anchor into a file that is not a page";
        }
        return DocPages.anchors(resolved).contains(target.substring(hash + 1)) ? null : "no such heading";
    }
}
