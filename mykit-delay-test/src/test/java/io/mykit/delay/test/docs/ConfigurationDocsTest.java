package io.mykit.delay.test.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md lists every {@code mykit.delay.*} setting the gateway binds, as the configuration metadata on
 * the class path (generated from DelayProperties, plus the keys read outside it) declares them.
 */
class ConfigurationDocsTest {

    @Test
    void every_setting_in_the_metadata_is_documented() throws IOException {
        TreeSet<String> keys = metadataKeys();
        assertThat(keys)
                .as("settings in the configuration metadata")
                .hasSizeGreaterThan(50)
                .contains("mykit.delay.buckets", "mykit.delay.embedded.enabled");
        String page = DocPages.text(DocPages.root().resolve("docs/configuration.md"));
        List<String> missing =
                keys.stream().filter(key -> !page.contains("`" + key + "`")).toList();
        assertThat(missing).as("settings missing from docs/configuration.md").isEmpty();
    }

    private static TreeSet<String> metadataKeys() throws IOException {
        TreeSet<String> keys = new TreeSet<>();
        ObjectMapper mapper = new ObjectMapper();
        for (URL url : Collections.list(ConfigurationDocsTest.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                for (JsonNode property : mapper.readTree(in).path("properties")) {
                    String name = property.path("name").asText();
                    if (name.startsWith("mykit.delay.")) {
                        keys.add(name);
                    }
                }
            }
        }
        return keys;
    }
}
