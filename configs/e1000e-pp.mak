# Minimal x86_64 device set for e1000e-pp: both boards, the stock e1000e
# for side-by-side comparison, our model, and what the tests need.
CONFIG_Q35=y
CONFIG_I440FX=y
CONFIG_E1000E_PCI_EXPRESS=y
CONFIG_E1000_PCI=y
CONFIG_VIRTIO_NET=y
CONFIG_VIRTIO_PCI=y
CONFIG_PCIE_PORT=y
CONFIG_VTD=y
CONFIG_SERIAL_ISA=y
CONFIG_E1000E_PP=y
