"""Every op once, as a function of Tensors; Primitive classes adapt onto them."""
