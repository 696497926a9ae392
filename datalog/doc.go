// Package datalog is a general, embedded, incremental semi-naive Datalog
// engine (DESIGN.md §4 runs the interference rules on it).
package datalog
