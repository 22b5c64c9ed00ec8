package io.distlock.example;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The sample application on the PostgreSQL server at 127.0.0.1:5432 (database test). */
class PostgresSampleApplicationTest extends SampleApplicationTestBase {

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        registry.add("distlock.uri", () -> "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
        names(registry);
    }
}
