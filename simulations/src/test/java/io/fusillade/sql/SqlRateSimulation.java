package io.fusillade.sql;

import io.fusillade.scenarios.sql.SqlRateRun;

/**
 * Reference simulation, Picostress {@code const_rps} mode with an optional spike: {@code mvn -pl
 * simulations gatling:test -Dgatling.simulationClass=io.fusillade.sql.SqlRateSimulation
 * -Dfusillade.workload=path/to/workload.yml -Dfusillade.rate=200 -Dfusillade.duration=60s}. See
 * {@link SqlRateRun}.
 */
public class SqlRateSimulation extends SqlRateRun {}
