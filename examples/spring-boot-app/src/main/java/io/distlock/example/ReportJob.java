package io.distlock.example;

import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** A job that one instance runs per period, whichever fires first; the others skip that period. */
@Component
public class ReportJob {

    private final AtomicInteger runs = new AtomicInteger();

    @Scheduled(fixedRateString = "${sample.report-period:PT1H}")
    @SchedulerLock(name = "${sample.report-lock:sample-report}", lockAtLeastFor = "PT1S")
    public void report() {
        runs.incrementAndGet();
    }

    /** How many times this instance ran the job. */
    public int runs() {
        return runs.get();
    }
}
