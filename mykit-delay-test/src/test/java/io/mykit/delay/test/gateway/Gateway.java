package io.mykit.delay.test.gateway;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@link TestGateway} for a test, started and closed by {@link GatewayExtension}: a static field gets one for the
 * whole class (started before its {@code @BeforeAll} methods, closed after its {@code @AfterAll} methods), a test
 * method's parameter one for that test alone.
 *
 * <pre>
 * &#64;Gateway("mykit.delay.pull.poll-interval=50ms")
 * private static TestGateway gateway;
 *
 * &#64;Test
 * void works(&#64;Gateway("mykit.delay.admin.token=t0k3n") TestGateway own) { ... }
 * </pre>
 */
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(GatewayExtension.class)
public @interface Gateway {

    /**
     * Extra properties, {@code key=value}, on top of those {@link TestGateway} sets (a repeated key: the last wins).
     */
    String[] value() default {};

    /** On the test JVM's Redis Cluster ({@code RedisClusterServers}) instead of the shared Redis. */
    boolean redisCluster() default false;
}
