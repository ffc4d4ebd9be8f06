TEMPLATE = """
heat_template_version: 2018-08-31
resources:
  r: {type: OS::Heat::None, properties: {value: {get_param: nope}}}
"""
