package cfg

// Models of Linux kernel API functions that drivers call without a body
// in the unit (the DDVerify drivers, preprocessed against DDVerify's
// kernel model, keep about a hundred of them external), and the C
// library's memset/memcpy/memmove in the forms builtins.go does not lower
// exactly. Each behaves like a libcModels entry (libc.go): it calls no
// function pointer, does not touch address-taken globals, and keeps no
// pointer it receives. Without a model each such call is an unknown
// external (callback.go): it havocs every address-taken global (a
// driver's device struct, which holds its I/O base address and
// counters) and starts every callback the driver registered as an
// unbounded thread template at the call.
//
// Only functions whose kernel definition satisfies the three premises
// are listed: delays, capability and signal queries, I/O port and
// memory-mapped I/O accessors (their stores go to device memory, which
// the program reaches only through the pointer argument), bit operations
// on a word the argument points to, PCI configuration reads into an
// out-parameter, reference counts and kfree. Functions that register
// something the kernel keeps and uses later (wait queues, timers,
// notifiers, proc entries, cdrom or block devices), or that may call a
// driver's function pointer (cdrom_open, bio_endio, end_that_request_*,
// poll_wait), stay unknown externals.
var kernelModels = map[string]libcKind{
	// time, scheduling, interrupts: no memory the program reads
	"udelay": libcReadOnly, "ndelay": libcReadOnly, "mdelay": libcReadOnly,
	"msleep": libcReadOnly, "msleep_interruptible": libcReadOnly, "ssleep": libcReadOnly,
	"barrier": libcReadOnly, "cpu_relax": libcReadOnly, "yield": libcReadOnly,
	"cli": libcReadOnly, "sti": libcReadOnly, "local_irq_save": libcReadOnly, "local_irq_restore": libcReadOnly,
	"local_irq_disable": libcReadOnly, "local_irq_enable": libcReadOnly,
	"set_current_state": libcReadOnly, "get_current": libcReadOnly,
	// queries
	"capable": libcReadOnly, "signal_pending": libcReadOnly, "access_ok": libcReadOnly,
	"waitqueue_active": libcReadOnly, "test_bit": libcReadOnly, "recalc_sigpending": libcReadOnly,
	"probe_irq_on": libcReadOnly, "probe_irq_off": libcReadOnly,
	"pci_match_id": libcReadOnly, "pci_dev_present": libcReadOnly, "machine_is_netwinder": libcReadOnly,
	"no_llseek": libcReadOnly, "kernel_power_off": libcReadOnly,
	// I/O: reads return any value; stores go through the pointer argument
	"readb": libcReadOnly, "readw": libcReadOnly, "readl": libcReadOnly,
	"ioread8": libcReadOnly, "ioread16": libcReadOnly, "ioread32": libcReadOnly,
	"writeb": libcWrites, "writew": libcWrites, "writel": libcWrites,
	"iowrite8": libcWrites, "iowrite16": libcWrites, "iowrite32": libcWrites,
	"insb": libcWrites, "insw": libcWrites, "insl": libcWrites,
	"outsb": libcReadOnly, "outsw": libcReadOnly, "outsl": libcReadOnly,
	"ioremap": libcReadOnly, "ioremap_nocache": libcReadOnly, "iounmap": libcWrites,
	"kmap": libcReadOnly, "kunmap": libcReadOnly,
	"pci_bus_read_config_byte": libcWrites, "pci_bus_read_config_word": libcWrites,
	"pci_bus_read_config_dword": libcWrites,
	"pci_bus_write_config_byte": libcReadOnly, "pci_bus_write_config_word": libcReadOnly,
	"pci_bus_write_config_dword": libcReadOnly,
	// words and objects the argument points to
	"set_bit": libcWrites, "clear_bit": libcWrites, "change_bit": libcWrites,
	"test_and_set_bit": libcWrites, "test_and_clear_bit": libcWrites, "test_and_change_bit": libcWrites,
	"__module_get": libcWrites, "module_put": libcWrites, "try_module_get": libcWrites,
	"kfree": libcWrites, "pci_dev_put": libcWrites, "put_disk": libcWrites, "set_capacity": libcWrites,
	"nonseekable_open": libcWrites,
	// unregistering: the kernel drops the pointer it kept (registering
	// stays unknown: the kernel calls the registered functions later)
	"misc_deregister": libcWrites, "unregister_reboot_notifier": libcWrites,
	// C library, sizes builtins.go cannot lower exactly (memcpy and
	// memmove also copy pointers: call.go records the copy)
	"memset": libcWrites, "memcpy": libcWrites, "memmove": libcWrites,
}

// externalModel is the model of an external function without a body:
// libcModels, then kernelModels, else unknownExternal.
func externalModel(name string) libcKind {
	if k, ok := libcModels[name]; ok {
		return k
	}
	return kernelModels[name]
}
