package io.mykit.delay.spring;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;

/**
 * Finds the {@link DelayListener} methods of every bean as it is made, resolves their placeholders and defaults, and
 * checks them, so that a listener the starter cannot run stops the start with a message naming the method. The
 * {@link DelayListenerRegistry} runs what it found.
 */
public class DelayListenerProcessor implements BeanPostProcessor {
    private final Environment environment;
    private final DelayClientProperties.Listener defaults;
    private final Map<String, ListenerEndpoint> endpoints = new LinkedHashMap<>();
    private final Set<Class<?>> withoutListeners = ConcurrentHashMap.newKeySet();

    public DelayListenerProcessor(Environment environment) {
        this.environment = environment;
        this.defaults = Binder.get(environment)
                .bind(DelayClientProperties.PREFIX, DelayClientProperties.class)
                .orElseGet(DelayClientProperties::new)
                .getListener();
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> type = AopUtils.getTargetClass(bean);
        if (withoutListeners.contains(type)) {
            return bean;
        }
        Map<Method, DelayListener> annotated =
                MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<DelayListener>)
                        method -> AnnotatedElementUtils.findMergedAnnotation(method, DelayListener.class));
        if (annotated.isEmpty()) {
            withoutListeners.add(type);
            return bean;
        }
        annotated.forEach((method, annotation) -> add(bean, beanName, method, annotation));
        return bean;
    }

    /** The listeners found so far, in the order their beans were made. */
    synchronized List<ListenerEndpoint> endpoints() {
        return List.copyOf(endpoints.values());
    }

    private synchronized void add(Object bean, String beanName, Method method, DelayListener annotation) {
        String description = beanName + "." + method.getName()
                + Arrays.stream(method.getParameterTypes())
                        .map(Class::getSimpleName)
                        .toList()
                        .toString()
                        .replace('[', '(')
                        .replace(']', ')');
        ListenerMethod target =
                new ListenerMethod(bean, AopUtils.selectInvocableMethod(method, bean.getClass()), description);
        String id = annotation.id().isEmpty()
                ? beanName + "." + method.getName()
                : resolve(annotation.id(), description, "id");
        if (endpoints.containsKey(id)) {
            throw ListenerMethod.invalid(
                    description,
                    "listener id " + id + " is taken by "
                            + endpoints.get(id).method().description());
        }
        endpoints.put(
                id,
                new ListenerEndpoint(
                        id,
                        topics(annotation, description),
                        number(annotation.concurrency(), defaults.getConcurrency(), 1, description, "concurrency"),
                        number(annotation.credit(), defaults.getCredit(), 0, description, "credit"),
                        duration(annotation.ttr(), defaults.getTtr(), description),
                        target));
    }

    private List<String> topics(DelayListener annotation, String description) {
        List<String> topics = new ArrayList<>();
        Stream.concat(Stream.of(annotation.topic()), Arrays.stream(annotation.topics()))
                .filter(value -> !value.isEmpty())
                .map(value -> resolve(value, description, "topics"))
                .flatMap(value -> Arrays.stream(value.split(",")))
                .map(String::trim)
                .filter(topic -> !topic.isEmpty())
                .forEach(topics::add);
        if (topics.isEmpty()) {
            throw ListenerMethod.invalid(description, "it names no topic (topic = \"...\" or topics = {...})");
        }
        return List.copyOf(topics);
    }

    private int number(String value, int fallback, int min, String description, String attribute) {
        if (value.isEmpty()) {
            return fallback;
        }
        String resolved = resolve(value, description, attribute);
        int number;
        try {
            number = Integer.parseInt(resolved.trim());
        } catch (NumberFormatException e) {
            throw ListenerMethod.invalid(description, attribute + " is not a number: " + resolved);
        }
        if (number < min) {
            throw ListenerMethod.invalid(description, attribute + " must be >= " + min + ", was " + number);
        }
        return number;
    }

    private Duration duration(String value, Duration fallback, String description) {
        if (value.isEmpty()) {
            return fallback;
        }
        String resolved = resolve(value, description, "ttr");
        Duration ttr;
        try {
            ttr = DurationStyle.detectAndParse(resolved.trim());
        } catch (IllegalArgumentException e) {
            throw ListenerMethod.invalid(description, "ttr is not a duration (30s, 500ms, or ms): " + resolved);
        }
        if (ttr.isNegative() || ttr.isZero()) {
            throw ListenerMethod.invalid(description, "ttr must be positive, was " + resolved);
        }
        return ttr;
    }

    private String resolve(String value, String description, String attribute) {
        try {
            return environment.resolveRequiredPlaceholders(value);
        } catch (IllegalArgumentException e) {
            throw ListenerMethod.invalid(description, attribute + ": " + e.getMessage());
        }
    }
}
