package io.mykit.delay.spring;

import io.mykit.delay.client.Acknowledgement;
import io.mykit.delay.client.DelayConsumer;
import io.mykit.delay.client.ReceivedJob;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.springframework.util.ReflectionUtils;

/**
 * A {@link DelayListener} method of a bean, called with the arguments its parameters ask for. A signature the starter
 * cannot call is refused when the bean is made, naming the method.
 */
final class ListenerMethod {
    /** What one parameter receives. */
    private enum Argument {
        BODY(String.class),
        JOB(ReceivedJob.class),
        ACK(Acknowledgement.class);

        private final Class<?> type;

        Argument(Class<?> type) {
            this.type = type;
        }
    }

    private final Object bean;
    private final Method method;
    private final List<Argument> arguments;
    private final String description;

    ListenerMethod(Object bean, Method method, String description) {
        this.bean = bean;
        this.method = method;
        this.description = description;
        this.arguments = argumentsOf(method, description);
        ReflectionUtils.makeAccessible(method);
    }

    /** "orderListener.close(String)", for messages. */
    String description() {
        return description;
    }

    /** True when the method acknowledges its jobs itself (it takes an {@link Acknowledgement}). */
    boolean manual() {
        return arguments.contains(Argument.ACK);
    }

    /** Sets the consumer's handler: acknowledged by the outcome, or by the method itself. */
    void handle(DelayConsumer.Builder consumer) {
        if (manual()) {
            consumer.manualHandler(this::invoke);
        } else {
            consumer.handler(job -> invoke(job, null));
        }
    }

    private void invoke(ReceivedJob job, Acknowledgement ack) throws Exception {
        Object[] values = new Object[arguments.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (arguments.get(i)) {
                case BODY -> job.body();
                case JOB -> job;
                case ACK -> ack;
            };
        }
        try {
            method.invoke(bean, values);
        } catch (InvocationTargetException e) {
            // the method's own exception decides the job's outcome, not the reflective wrapper
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private static List<Argument> argumentsOf(Method method, String description) {
        if (Modifier.isStatic(method.getModifiers())) {
            throw invalid(description, "it is static");
        }
        List<Argument> arguments = new ArrayList<>();
        for (Class<?> type : method.getParameterTypes()) {
            Argument argument = null;
            for (Argument candidate : Argument.values()) {
                if (candidate.type == type) {
                    argument = candidate;
                }
            }
            if (argument == null) {
                throw invalid(
                        description,
                        "parameter type " + type.getName()
                                + " is not one of String (the body), ReceivedJob, Acknowledgement");
            }
            if (arguments.contains(argument)) {
                throw invalid(description, "it takes " + type.getSimpleName() + " twice");
            }
            arguments.add(argument);
        }
        return List.copyOf(arguments);
    }

    static IllegalStateException invalid(String description, String why) {
        return new IllegalStateException("@DelayListener method " + description + " cannot be used: " + why);
    }
}
