package io.distlock.example;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The sample application on the Redis server at 127.0.0.1:6379. */
class RedisSampleApplicationTest extends SampleApplicationTestBase {

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        registry.add("distlock.uri", () -> "redis://127.0.0.1:6379?keyPrefix=sample-" + RUN + ":");
        names(registry);
    }
}
