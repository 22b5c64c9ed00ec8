package io.distlock.example;

import java.util.UUID;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A service that runs on several instances: one of them is the leader (Spring Integration's leader initiator over
 * the auto-configured distlock {@link LockRegistry}), and {@link ReportJob} runs once per period across all of them
 * (ShedLock over the auto-configured distlock provider). The store is {@code distlock.uri}.
 */
@SpringBootApplication
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT1M")
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }

    /** Campaigns for {@code sample.leader-role} as soon as the application starts. */
    @Bean
    LockRegistryLeaderInitiator leaderInitiator(LockRegistry registry,
            @Value("${sample.leader-role:sample-leader}") String role) {
        return new LockRegistryLeaderInitiator(registry, new DefaultCandidate(UUID.randomUUID().toString(), role));
    }
}
