package io.mykit.delay.core.compat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.commons.logging.Log;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;

/**
 * Reads what a deployment of the original mykit-delay configured under the original's names and hands it to this
 * gateway's settings, so their files keep working (see {@link OriginalSettings} for the mapping). A setting under this
 * gateway's own name always wins: the translated values go last. Two things of the original's files cannot work here
 * and would stop the start with a message far from its cause: a Druid pool type (Druid is not shipped) and a
 * {@code logging.config} whose placeholder nobody set; both are overridden first, with a warning naming the key.
 */
public class OriginalSettingsPostProcessor implements EnvironmentPostProcessor, Ordered {
    static final String TRANSLATED = "mykitDelayOriginalSettings";
    static final String OVERRIDDEN = "mykitDelayOriginalSettingsOverrides";
    /** Where the original read {@code default.cq} from. */
    static final String STARTER_PROPERTIES = "properties/starter.properties";

    private final Log log;

    public OriginalSettingsPostProcessor(DeferredLogFactory logFactory) {
        this.log = logFactory.getLog(OriginalSettingsPostProcessor.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Binder binder = Binder.get(environment);
        OriginalSettings.Result result = OriginalSettings.translate(
                key -> lookup(environment, binder, key),
                key -> binder.bind(key, Bindable.listOf(String.class)).orElse(List.of()),
                starterProperties(),
                OriginalSettingsPostProcessor::loadable,
                key -> environment.containsProperty(key),
                prefix -> anyUnder(environment, prefix + "."));
        result.notes().forEach(log::warn);
        if (!result.translated().isEmpty()) {
            environment
                    .getPropertySources()
                    .addLast(new MapPropertySource(TRANSLATED, new LinkedHashMap<>(result.translated())));
        }
        if (!result.overrides().isEmpty()) {
            environment
                    .getPropertySources()
                    .addFirst(new MapPropertySource(OVERRIDDEN, new LinkedHashMap<>(result.overrides())));
        }
    }

    private static Optional<String> lookup(ConfigurableEnvironment environment, Binder binder, String key) {
        try {
            return Optional.ofNullable(binder.bind(key, String.class).orElse(null));
        } catch (RuntimeException unresolvable) {
            // an unresolvable placeholder: the raw text tells the user which one
            return Optional.ofNullable(environment.getPropertySources().stream()
                    .map(source -> source.getProperty(key))
                    .filter(value -> value != null)
                    .findFirst()
                    .map(Object::toString)
                    .orElse(null));
        }
    }

    /** The original's starter.properties: on the classpath as it shipped, else under the working directory. */
    private static Optional<OriginalSettings.Located> starterProperties() {
        for (Resource resource :
                List.of(new ClassPathResource(STARTER_PROPERTIES), new FileSystemResource(STARTER_PROPERTIES))) {
            if (resource.exists()) {
                Properties properties = new Properties();
                try (InputStream in = resource.getInputStream()) {
                    properties.load(in);
                } catch (IOException e) {
                    throw new IllegalStateException(
                            "cannot read " + resource.getDescription() + ": " + e.getMessage(), e);
                }
                Map<String, String> values = new LinkedHashMap<>();
                properties.stringPropertyNames().forEach(name -> values.put(name, properties.getProperty(name)));
                return Optional.of(new OriginalSettings.Located(resource.getDescription(), values));
            }
        }
        return Optional.empty();
    }

    static boolean anyUnder(ConfigurableEnvironment environment, String prefix) {
        return !namesUnder(environment, prefix).isEmpty();
    }

    /** The names of the settings any listable property source gives under {@code prefix}, sorted, each once. */
    public static List<String> namesUnder(ConfigurableEnvironment environment, String prefix) {
        return environment.getPropertySources().stream()
                .filter(source -> source instanceof EnumerablePropertySource<?>)
                .flatMap(source -> Arrays.stream(((EnumerablePropertySource<?>) source).getPropertyNames()))
                .filter(name -> name.startsWith(prefix))
                .distinct()
                .sorted()
                .toList();
    }

    private static boolean loadable(String className) {
        try {
            Class.forName(className, false, OriginalSettingsPostProcessor.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Override
    public int getOrder() {
        // after application.yml and the command line are in, before the embedded stores decide what is configured
        return Ordered.LOWEST_PRECEDENCE - 10;
    }
}
