package io.mykit.delay.test.gateway;

import io.mykit.delay.test.support.RedisClusterServers;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;

/**
 * Starts the gateways {@link Gateway} asks for and closes them (keys and journal database deleted) when their scope
 * ends: a static field's with the test class, a parameter's with its test. Each is kept in the scope's store, which
 * JUnit closes after the last callback of that scope.
 */
public final class GatewayExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(GatewayExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) throws IllegalAccessException {
        for (Field field : AnnotationSupport.findAnnotatedFields(
                context.getRequiredTestClass(), Gateway.class, f -> true, HierarchyTraversalMode.TOP_DOWN)) {
            if (!Modifier.isStatic(field.getModifiers()) || field.getType() != TestGateway.class) {
                throw new ExtensionConfigurationException("@Gateway field " + field
                        + " must be a static TestGateway (a test takes its own as a parameter)");
            }
            field.setAccessible(true);
            field.set(null, start(context, field.getAnnotation(Gateway.class), field.getName()));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.isAnnotated(Gateway.class) && parameter.getParameter().getType() == TestGateway.class;
    }

    @Override
    public TestGateway resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Gateway settings = parameter.findAnnotation(Gateway.class).orElseThrow();
        return start(context, settings, "parameter " + parameter.getIndex());
    }

    private static TestGateway start(ExtensionContext context, Gateway settings, String name) {
        TestGateway gateway = settings.redisCluster()
                ? TestGateway.startOnCluster(RedisClusterServers.get(), settings.value())
                : TestGateway.start(settings.value());
        context.getStore(NAMESPACE).put(name + "@" + gateway.keyPrefix(), new Started(gateway));
        return gateway;
    }

    /** Closes its gateway when JUnit closes the store it was put in. */
    private record Started(TestGateway gateway) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            gateway.close();
        }
    }
}
