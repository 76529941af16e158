"""The ``sporax demo`` job: LeNet5 on handwritten digits, end to end."""
